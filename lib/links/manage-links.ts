import { linkRevokedRecord } from "../activity/record-activity";
import { db, inOneTransaction } from "../database/db";
import { notFound } from "../errors";
import { RANDOM_ID_PATTERN } from "../secrets";

// A project's linked clients on its owner's page, and revoking one.

/** Whether a link's bearer works: it dies with its own revocation or its access token's end. */
export type LinkStatus = "active" | "revoked" | "token_revoked" | "token_expired";

export type LinkSummary = {
  id: string;
  iv: string;
  userAgent: string | null;
  tokenName: string;
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

/** The project's links, newest first, for its owner's page. */
export async function listProjectLinks(ownerId: string, projectId: string): Promise<LinkSummary[]> {
  const prisma = await db();
  const links = await prisma.projectLink.findMany({
    where: { projectId, project: { ownerId } },
    select: {
      id: true,
      iv: true,
      userAgent: true,
      createdAt: true,
      lastUsedAt: true,
      revokedAt: true,
      accessToken: { select: { name: true, revokedAt: true, expiresAt: true } },
    },
    orderBy: { createdAt: "desc" },
  });
  const now = Date.now();
  return links.map(({ accessToken, ...link }) => ({ ...link, tokenName: accessToken.name, accessUntil: accessToken.expiresAt, status: linkStatus(link.revokedAt, accessToken, now) }));
}

/** Revokes one link of the owner's project, in their activity too; its bearer fails from the next request on. */
export async function revokeProjectLink(ownerId: string, projectId: string, linkId: string): Promise<void> {
  if (!RANDOM_ID_PATTERN.test(projectId) || !RANDOM_ID_PATTERN.test(linkId)) throw notFound("This project has no link with this id.");
  const prisma = await db();
  const link = await prisma.projectLink.findFirst({ where: { id: linkId, projectId, project: { ownerId } }, select: { revokedAt: true } });
  if (link === null) throw notFound("This project has no link with this id.");
  if (link.revokedAt !== null) return;
  await inOneTransaction(
    prisma.projectLink.updateMany({ where: { id: linkId, revokedAt: null }, data: { revokedAt: new Date() } }),
    linkRevokedRecord(prisma, linkId, ownerId),
  );
}
