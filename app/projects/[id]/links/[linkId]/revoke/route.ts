import { revokeLinkOperation } from "@/lib/api/operations/revoke-link";
import { route } from "@/lib/api/route";
import { revokeProjectLink } from "@/lib/links/manage-links";

export const POST = route(revokeLinkOperation, async ({ auth: user, params }) => {
  await revokeProjectLink(user.id, params.id, params.linkId);
  return { to: `/projects/${encodeURIComponent(params.id)}?revoked=${encodeURIComponent(params.linkId)}` };
});
