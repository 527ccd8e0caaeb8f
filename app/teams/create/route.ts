import { createTeamOperation } from "@/lib/api/operations/teams";
import { route } from "@/lib/api/route";
import { createTeam } from "@/lib/teams/teams";

export const POST = route(createTeamOperation, async ({ cfg, auth: user, body }) => ({ to: `/teams/${await createTeam(cfg, user.id, body.name)}?created=1` }));
