import { db } from "../database/db";
import { ApiError, invalidToken } from "../errors";
import { hashSecret } from "../secrets";

export const ACCESS_TOKEN_PATTERN = /^ilat_[A-Za-z0-9_-]{43}$/;

/** A presented token that is valid now: who it acts for and what it reaches. */
export type AuthenticatedToken = { id: string; userId: string; projectId: string | null; expiresAt: Date | null };

/**
 * The token behind `Authorization: Bearer <token>`; a 401 if absent, malformed, unknown,
 * expired or revoked. Reads only: a request that fails later must not have written anything.
 */
export async function authenticateAccessToken(token: string | null): Promise<AuthenticatedToken> {
  if (token === null) throw new ApiError("unauthorized", "Send an access token as Authorization: Bearer <token>.");
  const invalid = invalidToken("The access token is not valid.");
  if (!ACCESS_TOKEN_PATTERN.test(token)) throw invalid;
  const prisma = await db();
  const row = await prisma.accessToken.findUnique({
    where: { tokenHash: hashSecret(token) },
    select: { id: true, userId: true, projectId: true, expiresAt: true, revokedAt: true },
  });
  if (row === null) throw invalid;
  if (row.revokedAt !== null) throw invalidToken("The access token has been revoked.");
  if (row.expiresAt !== null && row.expiresAt.getTime() <= Date.now()) throw invalidToken("The access token has expired.");
  return { id: row.id, userId: row.userId, projectId: row.projectId, expiresAt: row.expiresAt };
}

// Last-used times are for people, to the minute: a busy client does not write on every request.
const LAST_USED_RESOLUTION_MS = 60_000;

/** Notes that a request with this token succeeded. */
export async function recordTokenUse(id: string): Promise<void> {
  const prisma = await db();
  const now = Date.now();
  await prisma.accessToken.updateMany({
    where: { id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: new Date(now - LAST_USED_RESOLUTION_MS) } }] },
    data: { lastUsedAt: new Date(now) },
  });
}
