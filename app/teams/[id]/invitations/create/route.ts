import { inviteMemberOperation } from "@/lib/api/operations/teams";
import { route } from "@/lib/api/route";
import { inviteMember } from "@/lib/teams/invitations";

export const POST = route(inviteMemberOperation, ({ cfg, auth: user, params, body }) => inviteMember(cfg, user.id, params.id, body));
