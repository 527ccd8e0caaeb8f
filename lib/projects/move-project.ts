import { db, statementsInOneTransaction } from "../database/db";
import { ApiError, notFound } from "../errors";
import { Prisma } from "../generated/prisma/client";
import { RANDOM_ID_PATTERN } from "../secrets";
import { lockTeamStatement, memberWithRoleSql, teamEventRecord } from "../teams/team-activity";
import { teamRoleOf } from "../teams/team-access";
import { resolveProjectId } from "./resolve-project";

/**
 * Moves a personal project of `userId`'s into a team they own. Its id, key, links and tokens stay
 * as they are; from then on the team's members reach it as their roles allow. A project in a team
 * stays there. The team's row is locked first: a deletion of the team waits, and sees the project.
 */
export async function moveProjectToTeam(userId: string, pathId: string, teamId: string): Promise<string> {
  const projectId = await resolveProjectId(pathId, userId);
  if (projectId === null) throw notFound("You have no project with this id.");
  if (!RANDOM_ID_PATTERN.test(teamId) || (await teamRoleOf(userId, teamId)) === null) throw notFound("You are not a member of a team with this id.");
  const prisma = await db();
  const owner = memberWithRoleSql(teamId, userId, ["owner"]);
  // The event is decided before the move, by the move's own conditions: after it, a project that
  // was in this team already would look moved, and a refused move would be in the activity. The
  // project's row is locked first (a no-op update), so that a concurrent move of it commits before
  // both statements read it, or waits for this one.
  const movable = Prisma.sql`EXISTS (SELECT 1 FROM "Project" p WHERE p."id" = ${projectId} AND p."teamId" IS NULL AND p."ownerId" = ${userId}) AND ${owner}`;
  const [, , , moved] = await statementsInOneTransaction([
    lockTeamStatement(prisma, teamId),
    prisma.$executeRaw`UPDATE "Project" SET "teamId" = "teamId" WHERE "id" = ${projectId}`,
    teamEventRecord(prisma, { kind: "project_moved_to_team", actorId: userId, teamId, subjectId: projectId, projectId }, movable),
    prisma.$executeRaw`UPDATE "Project" SET "teamId" = ${teamId} WHERE "id" = ${projectId} AND "teamId" IS NULL AND "ownerId" = ${userId} AND ${owner}`,
  ]);
  if (moved === 1) return projectId;
  if ((await teamRoleOf(userId, teamId)) !== "owner") throw new ApiError("team_role_required", "Only the team's owners may move a project into it.");
  throw new ApiError("invalid_request", "Only a personal project of yours can be moved into a team: this one is in a team already.");
}
