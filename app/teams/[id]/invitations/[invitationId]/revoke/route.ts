import { revokeInvitationOperation } from "@/lib/api/operations/teams";
import { route } from "@/lib/api/route";
import { revokeInvitation } from "@/lib/teams/invitations";

export const POST = route(revokeInvitationOperation, async ({ auth: user, params }) => {
  await revokeInvitation(user.id, params.id, params.invitationId);
  return { to: `/teams/${encodeURIComponent(params.id)}?invitation_revoked=1` };
});
