import { db, statementsInOneTransaction } from "../database/db";
import { ApiError, notFound } from "../errors";
import { Prisma } from "../generated/prisma/client";
import { RANDOM_ID_PATTERN, randomId } from "../secrets";
import { hasRole, type TeamRole } from "./roles";
import { lockTeamStatement, memberWithRoleSql, teamEventRecord } from "./team-activity";
import { teamRoleOf } from "./team-access";
import { memberRole } from "./teams";

// Changing a member's role, and removing a member (or leaving). Each is one transaction that
// first locks the team's row, so that changes to one team's members take turns: of two owners
// demoting each other at once, the second sees the first's change and is refused as the last
// owner, on PostgreSQL (READ COMMITTED) as on SQLite. The change marks the member's row with its
// own id (TeamMember.changeId), and every statement after it acts only where that mark is, so
// what a refused change would have done (its events, its revocations) is never written.

/** What a member approved into the team's projects, as the removal's confirmation lists it. */
export type MemberApprovals = {
  links: { id: string; projectName: string; tokenName: string; iv: string; createdAt: Date }[];
  tokens: { id: string; projectName: string; name: string; createdAt: Date }[];
  logins: number;
};

const noMember = () => notFound("This team has no member with this id.");
const ownersOnly = () => new ApiError("team_role_required", "Only the team's owners may change roles.");
const lastOwner = () => new ApiError("last_owner", "A team keeps at least one owner: make another member an owner first.");

/** The team's projects, as an SQL list. */
const teamProjectsSql = (teamId: string) => Prisma.sql`(SELECT p."id" FROM "Project" p WHERE p."teamId" = ${teamId})`;

/** The member's row bears this change's mark. */
const markedSql = (changeId: string) => Prisma.sql`EXISTS (SELECT 1 FROM "TeamMember" c WHERE c."changeId" = ${changeId})`;

/** Unless the member is an owner, or other owners remain: a team never has none. */
const notLastOwnerSql = (teamId: string) =>
  Prisma.sql`("TeamMember"."role" <> 'owner' OR (SELECT COUNT(*) FROM "TeamMember" o WHERE o."teamId" = ${teamId} AND o."role" = 'owner') > 1)`;

async function emailOf(userId: string): Promise<string> {
  const prisma = await db();
  const user = await prisma.user.findUnique({ where: { id: userId }, select: { email: true } });
  if (user === null) throw noMember();
  return user.email;
}

/** Gives `memberId` the role `role`; the team's owners only, and never its last owner away. */
export async function changeRole(actorId: string, teamId: string, memberId: string, role: TeamRole): Promise<void> {
  if ((await memberRole(actorId, teamId)) !== "owner") throw ownersOnly();
  if (!RANDOM_ID_PATTERN.test(memberId)) throw noMember();
  const prisma = await db();
  const changeId = randomId();
  const [, changed] = await statementsInOneTransaction([
    lockTeamStatement(prisma, teamId),
    prisma.$executeRaw`
      UPDATE "TeamMember" SET "role" = ${role}, "changeId" = ${changeId}
      WHERE "teamId" = ${teamId} AND "userId" = ${memberId} AND ${memberWithRoleSql(teamId, actorId, ["owner"])}
        AND ${role === "owner" ? Prisma.sql`TRUE` : notLastOwnerSql(teamId)}`,
    teamEventRecord(prisma, { kind: "member_role_changed", actorId, teamId, subjectId: changeId, memberEmail: await emailOf(memberId), memberId, role }, markedSql(changeId)),
  ]);
  if (changed === 1) return;
  const now = await teamRoleOf(actorId, teamId);
  if (now !== "owner") throw ownersOnly();
  if ((await teamRoleOf(memberId, teamId)) === null) throw noMember();
  throw lastOwner();
}

/** What `memberId` approved into the team's projects and still works, for the one who removes them (or themselves). */
export async function memberApprovals(actorId: string, teamId: string, memberId: string): Promise<MemberApprovals> {
  const role = await memberRole(actorId, teamId);
  if (actorId !== memberId && !hasRole(role, "admin")) throw new ApiError("team_role_required", "Only the team's owners and admins may remove members.");
  if (!RANDOM_ID_PATTERN.test(memberId) || (await teamRoleOf(memberId, teamId)) === null) throw noMember();
  const prisma = await db();
  const now = new Date();
  const live = { revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] };
  const [links, tokens, logins] = await Promise.all([
    prisma.projectLink.findMany({
      where: { revokedAt: null, project: { teamId }, accessToken: { userId: memberId, ...live } },
      select: { id: true, iv: true, createdAt: true, project: { select: { name: true } }, accessToken: { select: { name: true } } },
      orderBy: { createdAt: "desc" },
    }),
    prisma.accessToken.findMany({ where: { userId: memberId, project: { teamId }, ...live }, select: { id: true, name: true, createdAt: true, project: { select: { name: true } } }, orderBy: { createdAt: "desc" } }),
    prisma.oAuthLogin.count({ where: { userId: memberId, project: { teamId }, revokedAt: null, expiresAt: { gt: now } } }),
  ]);
  return {
    links: links.map((link) => ({ id: link.id, iv: link.iv, createdAt: link.createdAt, projectName: link.project.name, tokenName: link.accessToken.name })),
    tokens: tokens.map((token) => ({ id: token.id, name: token.name, createdAt: token.createdAt, projectName: token.project?.name ?? "" })),
    logins,
  };
}

/**
 * Removes `memberId` from the team (`actorId` is the member themselves when they leave). Admins
 * remove members and admins, owners anyone; nobody the last owner. In the same transaction, what
 * the member approved into the team's projects is revoked, each in the actor's activity: their
 * access tokens for those projects, the OAuth logins, and (unless `keepLinks`) the links their
 * tokens made, whose clients then lose the project. With `keepLinks` the links, and the tokens
 * they hang on, stay: those clients keep the key, while the person reaches nothing of the team.
 */
export async function removeMember(actorId: string, teamId: string, memberId: string, { keepLinks }: { keepLinks: boolean }): Promise<void> {
  const leaving = actorId === memberId;
  const actorRole = await memberRole(actorId, teamId);
  if (!leaving && !hasRole(actorRole, "admin")) throw new ApiError("team_role_required", "Only the team's owners and admins may remove members.");
  if (!RANDOM_ID_PATTERN.test(memberId)) throw noMember();
  const prisma = await db();
  const changeId = randomId();
  const now = new Date();
  const marked = markedSql(changeId);
  const projects = teamProjectsSql(teamId);
  const permitted = leaving
    ? Prisma.sql`TRUE`
    : Prisma.sql`EXISTS (SELECT 1 FROM "TeamMember" a WHERE a."teamId" = ${teamId} AND a."userId" = ${actorId} AND (a."role" = 'owner' OR (a."role" = 'admin' AND "TeamMember"."role" <> 'owner')))`;
  const liveLinks = Prisma.sql`l."revokedAt" IS NULL AND l."projectId" IN ${projects} AND t."userId" = ${memberId}`;
  const revokedTokens = Prisma.sql`t."userId" = ${memberId} AND t."revokedAt" IS NULL AND t."projectId" IN ${projects}${
    keepLinks ? Prisma.sql` AND NOT EXISTS (SELECT 1 FROM "ProjectLink" k WHERE k."accessTokenId" = t."id" AND k."revokedAt" IS NULL)` : Prisma.empty
  }`;
  const linkStatements = keepLinks
    ? []
    : [
        prisma.$executeRaw`
          INSERT INTO "ActivityEvent" ("id", "userId", "kind", "subjectId", "occurredAt", "projectId", "projectName", "observedUserAgent", "tokenName", "iv", "decidedBy", "teamId")
          SELECT CAST(${changeId} AS TEXT) || '-' || l."id", u."id", 'link_revoked', l."id", ${now}, p."id", p."name", l."userAgent", t."name", l."iv", u."email", ${teamId}
          FROM "ProjectLink" l JOIN "AccessToken" t ON t."id" = l."accessTokenId" JOIN "Project" p ON p."id" = l."projectId" JOIN "User" u ON u."id" = ${actorId}
          WHERE ${liveLinks} AND ${marked}
          ON CONFLICT DO NOTHING`,
        prisma.$executeRaw`
          UPDATE "ProjectLink" SET "revokedAt" = ${now}
          WHERE "id" IN (SELECT l."id" FROM "ProjectLink" l JOIN "AccessToken" t ON t."id" = l."accessTokenId" WHERE ${liveLinks}) AND ${marked}`,
      ];
  const [, marks] = await statementsInOneTransaction([
    lockTeamStatement(prisma, teamId),
    prisma.$executeRaw`
      UPDATE "TeamMember" SET "changeId" = ${changeId}
      WHERE "teamId" = ${teamId} AND "userId" = ${memberId} AND ${permitted} AND ${notLastOwnerSql(teamId)}`,
    teamEventRecord(prisma, { kind: leaving ? "member_left" : "member_removed", actorId, teamId, subjectId: changeId, memberEmail: await emailOf(memberId), memberId }, marked),
    ...linkStatements,
    prisma.$executeRaw`
      INSERT INTO "ActivityEvent" ("id", "userId", "kind", "subjectId", "occurredAt", "projectId", "projectName", "tokenName", "decidedBy", "teamId")
      SELECT CAST(${changeId} AS TEXT) || '-' || t."id", u."id", 'access_token_revoked', t."id", ${now}, p."id", p."name", t."name", u."email", ${teamId}
      FROM "AccessToken" t JOIN "Project" p ON p."id" = t."projectId" JOIN "User" u ON u."id" = ${actorId}
      WHERE ${revokedTokens} AND ${marked}
      ON CONFLICT DO NOTHING`,
    prisma.$executeRaw`UPDATE "AccessToken" SET "revokedAt" = ${now} WHERE "id" IN (SELECT t."id" FROM "AccessToken" t WHERE ${revokedTokens}) AND ${marked}`,
    prisma.$executeRaw`
      UPDATE "OAuthLogin" SET "revokedAt" = ${now}, "revokedReason" = 'removal'
      WHERE "userId" = ${memberId} AND "revokedAt" IS NULL AND "projectId" IN ${projects} AND ${marked}`,
    prisma.$executeRaw`DELETE FROM "TeamMember" WHERE "changeId" = ${changeId}`,
  ]);
  if (marks === 1) return;
  const role = await teamRoleOf(memberId, teamId);
  if (role === null) throw noMember();
  if (role === "owner" && (leaving || (await teamRoleOf(actorId, teamId)) === "owner")) throw lastOwner();
  throw new ApiError("team_role_required", "Only the team's owners may remove an owner.");
}
