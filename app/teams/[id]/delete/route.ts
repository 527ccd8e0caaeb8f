import { deleteTeamOperation } from "@/lib/api/operations/teams";
import { route } from "@/lib/api/route";
import { deleteTeam } from "@/lib/teams/teams";

export const POST = route(deleteTeamOperation, async ({ auth: user, params }) => {
  await deleteTeam(user.id, params.id);
  return { to: "/teams?deleted=1" };
});
