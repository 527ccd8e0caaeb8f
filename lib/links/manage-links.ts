import { linkRevokedRecord } from "../activity/record-activity";
import { db, statementsInOneTransaction } from "../database/db";
import { ApiError, notFound } from "../errors";
import { Prisma } from "../generated/prisma/client";
import { RANDOM_ID_PATTERN } from "../secrets";
import { hasRole } from "../teams/roles";
import { lockMembershipStatement, projectAccess, reachableProjects, reachesProjectSql } from "../teams/team-access";

// A project's linked clients on its page, and revoking one. Everyone who reaches the project sees
// its links; a personal project's owner and a team's admins revoke any, a member those their own
// tokens made (lib/teams/team-access.ts).

/** Whether a link's bearer works: it dies with its own revocation or its access token's end. */
export type LinkStatus = "active" | "revoked" | "token_revoked" | "token_expired";

export type LinkSummary = {
  id: string;
  iv: string;
  userAgent: string | null;
  tokenName: string;
  /** The account whose access token made it: the one who approved the client. */
  approvedBy: string;
  /** Whether the viewer may revoke it. */
  revocable: boolean;
  /** When its access token ends (null: never): the lifetime chosen when it was approved (lib/init/access-lifetime.ts). */
  accessUntil: Date | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  status: LinkStatus;
};

function linkStatus(revokedAt: Date | null, token: { revokedAt: Date | null; expiresAt: Date | null }, now: number): LinkStatus {
  if (revokedAt !== null) return "revoked";
  if (token.revokedAt !== null) return "token_revoked";
  if (token.expiresAt !== null && token.expiresAt.getTime() <= now) return "token_expired";
  return "active";
}

/** The project's links, newest first, for its page; none for someone who does not reach it. */
export async function listProjectLinks(userId: string, projectId: string): Promise<LinkSummary[]> {
  const access = await projectAccess(userId, projectId);
  if (access === null) return [];
  const prisma = await db();
  const links = await prisma.projectLink.findMany({
    where: { projectId },
    select: {
      id: true,
      iv: true,
      userAgent: true,
      createdAt: true,
      lastUsedAt: true,
      revokedAt: true,
      accessToken: { select: { name: true, revokedAt: true, expiresAt: true, user: { select: { id: true, email: true } } } },
    },
    orderBy: { createdAt: "desc" },
  });
  const now = Date.now();
  const revokesAny = hasRole(access.role, "admin");
  return links.map(({ accessToken, ...link }) => ({
    ...link,
    tokenName: accessToken.name,
    approvedBy: accessToken.user.email,
    revocable: revokesAny || accessToken.user.id === userId,
    accessUntil: accessToken.expiresAt,
    status: linkStatus(link.revokedAt, accessToken, now),
  }));
}

/**
 * Revokes one link of a project `userId` reaches, in their activity too (and the team's); its
 * bearer fails from the next request on. The update itself holds the rule, so a role changed a
 * moment before decides: the project's owner or a team admin revokes any link, anyone the links
 * of their own tokens.
 */
export async function revokeProjectLink(userId: string, projectId: string, linkId: string): Promise<void> {
  if (!RANDOM_ID_PATTERN.test(projectId) || !RANDOM_ID_PATTERN.test(linkId)) throw notFound("This project has no link with this id.");
  const prisma = await db();
  const link = await prisma.projectLink.findFirst({ where: { id: linkId, projectId, project: reachableProjects(userId) }, select: { revokedAt: true } });
  if (link === null) throw notFound("This project has no link with this id.");
  if (link.revokedAt !== null) return;
  // The event holds the update's own rule: without it, a member refused another's link that an
  // admin revoked meanwhile would be recorded as revoking it (the link is revoked when it runs).
  // The person's membership of the project's team is locked first (lib/teams/team-access.ts), so
  // that the update and its event see the same role: on PostgreSQL (READ COMMITTED) a demotion
  // committing between the two would otherwise leave a revocation without its event.
  const allowed = Prisma.sql`(${reachesProjectSql("p", userId, "admin")} OR (t."userId" = ${userId} AND ${reachesProjectSql("p", userId)}))`;
  const [, revoked] = await statementsInOneTransaction([
    lockMembershipStatement(prisma, projectId, userId),
    prisma.projectLink.updateMany({
      where: { id: linkId, revokedAt: null, OR: [{ project: reachableProjects(userId, "admin") }, { accessToken: { userId }, project: reachableProjects(userId) }] },
      data: { revokedAt: new Date() },
    }),
    linkRevokedRecord(prisma, linkId, userId, allowed),
  ]);
  if (revoked.count === 1) return;
  if ((await prisma.projectLink.count({ where: { id: linkId, revokedAt: { not: null } } })) === 1) return;
  throw new ApiError("team_role_required", "Only the team's owners and admins may revoke a link someone else approved.");
}
