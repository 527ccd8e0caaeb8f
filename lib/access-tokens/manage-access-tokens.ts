import { accessTokenRecord } from "../activity/record-activity";
import { db, inOneTransaction } from "../database/db";
import { notFound } from "../errors";
import { RANDOM_ID_PATTERN } from "../secrets";

// The settings page's list of a person's access tokens, and revoking one.

export type AccessTokenSummary = {
  id: string;
  /** The token's first characters (null for tokens made before they were kept). */
  prefix: string | null;
  name: string;
  project: { id: string; name: string } | null;
  createdAt: Date;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
};

export async function listAccessTokens(userId: string): Promise<AccessTokenSummary[]> {
  const prisma = await db();
  return prisma.accessToken.findMany({
    where: { userId },
    select: { id: true, prefix: true, name: true, project: { select: { id: true, name: true } }, createdAt: true, expiresAt: true, lastUsedAt: true, revokedAt: true },
    orderBy: { createdAt: "desc" },
  });
}

/** Revokes one of the person's tokens at once, in their activity too; revoking a revoked token changes nothing. */
export async function revokeAccessToken(userId: string, id: string): Promise<void> {
  if (!RANDOM_ID_PATTERN.test(id)) throw notFound("You have no access token with this id.");
  const prisma = await db();
  const token = await prisma.accessToken.findFirst({ where: { id, userId }, select: { revokedAt: true } });
  if (token === null) throw notFound("You have no access token with this id.");
  if (token.revokedAt !== null) return;
  await inOneTransaction(
    prisma.accessToken.updateMany({ where: { id, userId, revokedAt: null }, data: { revokedAt: new Date() } }),
    accessTokenRecord(prisma, id, "access_token_revoked"),
  );
}
