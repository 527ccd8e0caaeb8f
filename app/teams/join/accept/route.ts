import { acceptInvitationOperation } from "@/lib/api/operations/teams";
import { route } from "@/lib/api/route";
import { acceptInvitation } from "@/lib/teams/invitations";

export const POST = route(acceptInvitationOperation, async ({ auth: user, body }) => ({ to: `/teams/${await acceptInvitation(user, body.token)}?joined=1` }));
