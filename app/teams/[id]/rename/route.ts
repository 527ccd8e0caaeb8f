import { renameTeamOperation } from "@/lib/api/operations/teams";
import { route } from "@/lib/api/route";
import { renameTeam } from "@/lib/teams/teams";

export const POST = route(renameTeamOperation, async ({ auth: user, params, body }) => {
  await renameTeam(user.id, params.id, body.name);
  return { to: `/teams/${encodeURIComponent(params.id)}?renamed=1` };
});
