import { db } from "../database/db";
import { ApiError, notFound } from "../errors";
import { projectAccess, reachableProjects } from "../teams/team-access";
import { hasRole } from "../teams/roles";
import { resolveProjectId } from "./resolve-project";

/**
 * Renames a project (found by its id or an alias) that `userId` owns, or whose team they are an
 * admin or owner of; a project they do not reach is not_found, and a team member's rename is
 * team_role_required. Only the name changes: its links, key and tokens stay as they are.
 */
export async function renameProject(userId: string, pathId: string, name: string): Promise<string> {
  const projectId = await resolveProjectId(pathId, userId);
  if (projectId === null) throw notFound("You have no project with this id.");
  const access = await projectAccess(userId, projectId);
  if (access !== null && !hasRole(access.role, "admin")) throw new ApiError("team_role_required", "Only the team's owners and admins may rename its projects.");
  const prisma = await db();
  const renamed = await prisma.project.updateMany({ where: { id: projectId, ...reachableProjects(userId, "admin") }, data: { name } });
  if (renamed.count === 0) throw notFound("You have no project with this id.");
  return projectId;
}
