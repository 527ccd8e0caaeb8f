import type { Config } from "../config";
import { db, inOneTransaction, inOneTransactionOfThree } from "../database/db";
import { Prisma } from "../generated/prisma/client";
import { ApiError, notFound } from "../errors";
import { countedUnlessRefused } from "../limits/rate-limit";
import { limitRules } from "../limits/rules";
import { RANDOM_ID_PATTERN, randomId } from "../secrets";
import { lockTeamStatement, memberWithRoleSql, teamEventRecord } from "./team-activity";
import { isTeamRole, type TeamRole } from "./roles";
import { teamRoleOf } from "./team-access";

// Teams as their members see them: making one, the list, a team's page, renaming and deleting.

export type TeamSummary = { id: string; name: string; role: TeamRole; members: number; projects: number };

export type TeamMemberView = { userId: string; email: string; role: TeamRole; joinedAt: Date };

export type InvitationView = { id: string; email: string; anyEmail: boolean; role: TeamRole; invitedBy: string; createdAt: Date; expiresAt: Date };

export type TeamView = {
  id: string;
  name: string;
  /** The viewer's role. */
  role: TeamRole;
  members: TeamMemberView[];
  projects: { id: string; name: string; createdAt: Date }[];
  /** Invitations still open; only admins and owners see them (empty for a member). */
  invitations: InvitationView[];
};

const noTeam = () => notFound("You are not a member of a team with this id.");

/** The team `teamId` with `userId`'s role in it; not_found for a team they are not in (as for none). */
export async function memberRole(userId: string, teamId: string): Promise<TeamRole> {
  if (!RANDOM_ID_PATTERN.test(teamId)) throw noTeam();
  const role = await teamRoleOf(userId, teamId);
  if (role === null) throw noTeam();
  return role;
}

/** Makes a team with `userId` as its one owner; limited per account per hour. */
export async function createTeam(cfg: Config, userId: string, name: string): Promise<string> {
  return countedUnlessRefused(limitRules(cfg).newTeamsPerAccount, userId, async () => {
    const prisma = await db();
    const id = randomId();
    const now = new Date();
    await inOneTransaction(
      prisma.team.create({ data: { id, name, createdAt: now, members: { create: { userId, role: "owner", joinedAt: now } } }, select: { id: true } }),
      teamEventRecord(prisma, { kind: "team_created", actorId: userId, teamId: id, subjectId: id }, Prisma.sql`TRUE`),
    );
    return id;
  });
}
/** The teams `userId` is in, by name. */
export async function listTeams(userId: string): Promise<TeamSummary[]> {
  const prisma = await db();
  const memberships = await prisma.teamMember.findMany({
    where: { userId },
    select: { role: true, team: { select: { id: true, name: true, _count: { select: { members: true, projects: true } } } } },
    orderBy: { team: { name: "asc" } },
  });
  return memberships.flatMap(({ role, team }) => (isTeamRole(role) ? [{ id: team.id, name: team.name, role, members: team._count.members, projects: team._count.projects }] : []));
}

/** A team's page for one of its members. */
export async function teamView(userId: string, teamId: string): Promise<TeamView> {
  const role = await memberRole(userId, teamId);
  const prisma = await db();
  const now = new Date();
  const team = await prisma.team.findUniqueOrThrow({
    where: { id: teamId },
    select: {
      id: true,
      name: true,
      members: { select: { userId: true, role: true, joinedAt: true, user: { select: { email: true } } }, orderBy: { joinedAt: "asc" } },
      projects: { select: { id: true, name: true, createdAt: true }, orderBy: { name: "asc" } },
      invitations: {
        where: role === "member" ? { id: "" } : { acceptedAt: null, revokedAt: null, expiresAt: { gt: now } },
        select: { id: true, email: true, anyEmail: true, role: true, invitedBy: true, createdAt: true, expiresAt: true },
        orderBy: { createdAt: "desc" },
      },
    },
  });
  return {
    id: team.id,
    name: team.name,
    role,
    members: team.members.flatMap((member) => (isTeamRole(member.role) ? [{ userId: member.userId, email: member.user.email, role: member.role, joinedAt: member.joinedAt }] : [])),
    projects: team.projects,
    invitations: team.invitations.flatMap((invitation) => (isTeamRole(invitation.role) ? [{ ...invitation, role: invitation.role }] : [])),
  };
}

const onlyOwners = (what: string) => new ApiError("team_role_required", `Only the team's owners may ${what} it.`);

/** Renames the team; its owners only. */
export async function renameTeam(userId: string, teamId: string, name: string): Promise<void> {
  if ((await memberRole(userId, teamId)) !== "owner") throw onlyOwners("rename");
  const prisma = await db();
  const owner = memberWithRoleSql(teamId, userId, ["owner"]);
  const [renamed] = await inOneTransaction(
    prisma.$executeRaw`UPDATE "Team" SET "name" = ${name} WHERE "id" = ${teamId} AND ${owner}`,
    teamEventRecord(prisma, { kind: "team_renamed", actorId: userId, teamId, subjectId: randomId() }, Prisma.sql`t."name" = ${name} AND ${owner}`),
  );
  if (renamed === 0) throw onlyOwners("rename");
}

/** Deletes a team without projects, and so its memberships and invitations; its owners only. */
export async function deleteTeam(userId: string, teamId: string): Promise<void> {
  if ((await memberRole(userId, teamId)) !== "owner") throw onlyOwners("delete");
  const prisma = await db();
  const allowed = Prisma.sql`${memberWithRoleSql(teamId, userId, ["owner"])} AND NOT EXISTS (SELECT 1 FROM "Project" p WHERE p."teamId" = ${teamId})`;
  // The team's row is locked first (a project moved in takes the same lock), then the event, which
  // still reads the team's name, and the deletion are decided by the same conditions.
  const [, , deleted] = await inOneTransactionOfThree(
    lockTeamStatement(prisma, teamId),
    teamEventRecord(prisma, { kind: "team_deleted", actorId: userId, teamId, subjectId: teamId }, allowed),
    prisma.$executeRaw`DELETE FROM "Team" WHERE "id" = ${teamId} AND ${allowed}`,
  );
  if (deleted === 1) return;
  if ((await prisma.project.count({ where: { teamId } })) > 0) throw new ApiError("team_has_projects", "This team still has projects: a team with projects cannot be deleted.");
  throw onlyOwners("delete");
}
