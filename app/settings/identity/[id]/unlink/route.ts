import { unlinkIdentityOperation } from "@/lib/api/operations/oidc";
import { route } from "@/lib/api/route";
import { unlinkIdentity } from "@/lib/identity/manage-identities";

export const POST = route(unlinkIdentityOperation, async ({ cfg, auth: user, params, origin }) => {
  await unlinkIdentity(cfg, user.id, params.id, origin);
  return { to: "/settings/identity?unlinked=1" };
});
