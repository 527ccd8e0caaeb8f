import { listEvents, type ActivityPage } from "../activity/list-activity";
import { db } from "../database/db";
import { ApiError } from "../errors";
import { hasRole } from "./roles";
import { memberRole } from "./teams";

/**
 * A page of the team's activity for its admins and owners: the team's own events and every event
 * of its projects, whoever's account it is in (each names who acted). Members see their own
 * activity only, on /activity.
 */
export async function listTeamActivity(userId: string, teamId: string, cursor: string | undefined): Promise<ActivityPage> {
  if (!hasRole(await memberRole(userId, teamId), "admin")) throw new ApiError("team_role_required", "Only the team's owners and admins see its activity.");
  const prisma = await db();
  const projects = await prisma.project.findMany({ where: { teamId }, select: { id: true } });
  return listEvents({ OR: [{ teamId }, { projectId: { in: projects.map((project) => project.id) } }] }, cursor);
}
