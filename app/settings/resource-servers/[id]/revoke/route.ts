import { revokeResourceServerOperation } from "@/lib/api/operations/resource-servers";
import { route } from "@/lib/api/route";
import { revokeResourceServer } from "@/lib/resource-servers/manage-resource-servers";

export const POST = route(revokeResourceServerOperation, async ({ auth: user, params }) => {
  await revokeResourceServer(user.id, params.id);
  return { to: `/settings/resource-servers?revoked=${encodeURIComponent(params.id)}` };
});
