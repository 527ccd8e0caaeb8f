import { moveProjectOperation } from "@/lib/api/operations/teams";
import { route } from "@/lib/api/route";
import { moveProjectToTeam } from "@/lib/projects/move-project";

export const POST = route(moveProjectOperation, async ({ auth: user, params, body }) => ({
  to: `/projects/${encodeURIComponent(await moveProjectToTeam(user.id, params.id, body.team))}?moved=1`,
}));
