import type { Config } from "../config";
import { db } from "../database/db";
import { ApiError, invalidToken } from "../errors";
import { verifyDpopProof, type DpopRequest } from "../oauth/dpop";
import { hashSecret } from "../secrets";

export const ACCESS_TOKEN_PATTERN = /^ilat_[A-Za-z0-9_-]{43}$/;

/** A presented token that is valid now: who it acts for and what it reaches. */
export type AuthenticatedToken = { id: string; userId: string; projectId: string | null; expiresAt: Date | null };

/** A token as the request's Authorization header presents it. */
export type PresentedToken = { scheme: "Bearer" | "DPoP"; token: string };

/** RFC 9449 §7.1: a refusal under the DPoP scheme's challenge. */
const invalidDpopToken = (message: string) => new ApiError("invalid_token", message, { challenge: "DPoP" });

/**
 * The token behind `Authorization: Bearer <token>`, or `DPoP <token>` with a proof of the key it
 * is bound to (RFC 9449 §7); a 401 if absent, malformed, unknown, expired or revoked, a bound
 * token without its key's proof, or an unbound one under the DPoP scheme. Reads only, but for the
 * proof's jti, spent last: a request that fails later must not have written anything.
 */
export async function authenticateAccessToken(cfg: Config, presented: PresentedToken | null, dpop: DpopRequest): Promise<AuthenticatedToken> {
  if (presented === null) throw new ApiError("unauthorized", "Send an access token as Authorization: Bearer <token>.");
  const { scheme, token } = presented;
  const invalid = invalidToken("The access token is not valid.");
  if (!ACCESS_TOKEN_PATTERN.test(token)) throw invalid;
  const prisma = await db();
  const row = await prisma.accessToken.findUnique({
    where: { tokenHash: hashSecret(token) },
    select: { id: true, userId: true, projectId: true, expiresAt: true, revokedAt: true, dpopJkt: true },
  });
  if (row === null) throw invalid;
  if (row.revokedAt !== null) throw invalidToken("The access token has been revoked.");
  if (row.expiresAt !== null && row.expiresAt.getTime() <= Date.now()) throw invalidToken("The access token has expired.");
  if (row.dpopJkt === null) {
    if (scheme === "DPoP") throw invalidToken("This access token is not bound to a DPoP key: send it as Authorization: Bearer <token>.");
  } else {
    // RFC 9449 §7.1: a bound token used as a bearer is refused, whoever holds it.
    if (scheme !== "DPoP") throw invalidDpopToken("This access token is bound to a DPoP key: send it as Authorization: DPoP <token> with a DPoP proof.");
    await verifyDpopProof(cfg, dpop, { accessToken: token, jkt: row.dpopJkt });
  }
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
