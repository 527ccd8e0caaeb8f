import { revokeAccessTokenOperation } from "@/lib/api/operations/revoke-access-token";
import { route } from "@/lib/api/route";
import { revokeAccessToken } from "@/lib/access-tokens/manage-access-tokens";

export const POST = route(revokeAccessTokenOperation, async ({ auth: user, params }) => {
  await revokeAccessToken(user.id, params.id);
  return { to: `/settings/tokens?revoked=${encodeURIComponent(params.id)}` };
});
