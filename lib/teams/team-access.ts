import { db, type Database } from "../database/db";
import { Prisma } from "../generated/prisma/client";
import { isTeamRole, rolesAtLeast, type TeamRole } from "./roles";

// Who reaches a project. A personal project (teamId null) is its owner's alone; a team's project
// is every member's, each as their role allows. Every check reads the membership as it is now,
// so a removed member is refused from their next request on, on every instance.

/** A Prisma condition on Project: the projects `userId` reaches (at `role` or above in a team). */
export function reachableProjects(userId: string, role: TeamRole = "member"): Prisma.ProjectWhereInput {
  return { OR: [{ teamId: null, ownerId: userId }, { team: { members: { some: { userId, role: { in: rolesAtLeast(role) } } } } }] };
}

/**
 * The same as an SQL condition on the project `projectAlias`, for raw statements that must decide
 * in the statement that writes (a removal racing this statement then either sees it or refuses it).
 */
export function reachesProjectSql(projectAlias: string, userId: string, role: TeamRole = "member"): Prisma.Sql {
  const project = Prisma.raw(projectAlias);
  return Prisma.sql`((${project}."teamId" IS NULL AND ${project}."ownerId" = ${userId}) OR EXISTS (
    SELECT 1 FROM "TeamMember" m WHERE m."teamId" = ${project}."teamId" AND m."userId" = ${userId} AND m."role" IN (${Prisma.join(rolesAtLeast(role))})))`;
}

/**
 * Locks `userId`'s membership of the team of `projectId` (a no-op update; none for a personal
 * project) until the transaction ends. Run first, it orders this transaction with a removal of
 * that member (lib/teams/membership.ts): on PostgreSQL (READ COMMITTED) as on SQLite, either this
 * transaction commits first and the removal then revokes what it made, or it waits for the
 * removal and its next statements see the membership gone.
 */
export function lockMembershipStatement(prisma: Database, projectId: string, userId: string) {
  return prisma.$executeRaw`UPDATE "TeamMember" SET "role" = "role" WHERE "userId" = ${userId} AND "teamId" = (SELECT "teamId" FROM "Project" WHERE "id" = ${projectId})`;
}

/** `userId`'s role in the team, or null for someone who is not a member. */
export async function teamRoleOf(userId: string, teamId: string): Promise<TeamRole | null> {
  const prisma = await db();
  const member = await prisma.teamMember.findUnique({ where: { teamId_userId: { teamId, userId } }, select: { role: true } });
  return member !== null && isTeamRole(member.role) ? member.role : null;
}

/** How `userId` reaches a project: as its personal owner, or with a role in its team. */
export type ProjectAccess = { teamId: null; role: "owner" } | { teamId: string; role: TeamRole };

/** How `userId` reaches `projectId`; null when they do not (and when it does not exist). */
export async function projectAccess(userId: string, projectId: string): Promise<ProjectAccess | null> {
  const prisma = await db();
  const project = await prisma.project.findUnique({
    where: { id: projectId },
    select: { ownerId: true, teamId: true, team: { select: { members: { where: { userId }, select: { role: true } } } } },
  });
  if (project === null) return null;
  if (project.teamId === null) return project.ownerId === userId ? { teamId: null, role: "owner" } : null;
  const role = project.team?.members[0]?.role;
  return role !== undefined && isTeamRole(role) ? { teamId: project.teamId, role } : null;
}

/** The team a project belongs to; null for a personal project (or none). */
export async function teamIdOf(projectId: string): Promise<string | null> {
  const prisma = await db();
  return (await prisma.project.findUnique({ where: { id: projectId }, select: { teamId: true } }))?.teamId ?? null;
}

