import type { Config } from "../config";
import { db, type Database } from "../database/db";
import { Prisma } from "../generated/prisma/client";
import type { RequestOrigin } from "../request-origin";
import { hashSecret, randomId, randomSecret } from "../secrets";

// Browser sessions: a random token in the cookie, its SHA-256 in the database. Each keeps the
// browser's User-Agent and address and when it was last seen, for /settings/sessions.

/** The signed-in person, and which of their sessions the request holds. */
export type SessionUser = { id: string; email: string; sessionId: string };

/**
 * A session's last-seen time, address and User-Agent are written at most this often: a page
 * view costs one more write every few minutes, not one per request.
 */
export const SESSION_SEEN_EVERY_MS = 5 * 60_000;

/** Starts a new session (a new token on every sign-in) from `origin` and returns its token, for the browser's cookie. */
export async function startSession(cfg: Config, userId: string, origin: RequestOrigin): Promise<string> {
  const prisma = await db();
  const token = randomSecret();
  const now = new Date();
  await prisma.session.create({
    data: {
      id: randomId(),
      tokenHash: hashSecret(token),
      userId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + cfg.sessionLifetimeMs),
      userAgent: origin.userAgent,
      address: origin.address,
      lastSeenAt: now,
    },
  });
  return token;
}

/** A session that takes another's place: its id, its token for the browser's cookie, and the statement that inserts it. */
export type ReplacementSession = { id: string; token: string; insert: Prisma.PrismaPromise<number> };

/**
 * A new session for the browser holding session `sessionId`, in its place: the same account,
 * sign-in time and expiry, seen now from `origin`, with a new token, so a copy of the old cookie
 * opens nothing once the old session is deleted (in the same transaction as this insert). It
 * inserts nothing if `sessionId` has ended meanwhile, nor, with `passwordHash`, unless that is
 * the account's hash (a password change's new one: the session comes with the change or not at all).
 */
export function replacementSession(prisma: Database, sessionId: string, origin: RequestOrigin, passwordHash?: string): ReplacementSession {
  const id = randomId();
  const token = randomSecret();
  const ifPassword = passwordHash === undefined ? Prisma.empty : Prisma.sql`AND u."passwordHash" = ${passwordHash}`;
  const insert = prisma.$executeRaw`
    INSERT INTO "Session" ("id", "tokenHash", "userId", "createdAt", "expiresAt", "userAgent", "address", "lastSeenAt")
    SELECT ${id}, ${hashSecret(token)}, s."userId", s."createdAt", s."expiresAt", ${origin.userAgent}, ${origin.address}, ${new Date()}
    FROM "Session" s JOIN "User" u ON u."id" = s."userId"
    WHERE s."id" = ${sessionId} ${ifPassword}`;
  return { id, token, insert };
}

/**
 * The person a session token belongs to, or null. With `seen` (the request's origin), a session
 * last seen more than SESSION_SEEN_EVERY_MS ago is marked seen now from there; the condition is
 * in the update, so concurrent requests write it once.
 */
export async function sessionUser(token: string | undefined, seen?: RequestOrigin): Promise<SessionUser | null> {
  if (!token || token.length > 100) return null;
  const prisma = await db();
  const session = await prisma.session.findUnique({
    where: { tokenHash: hashSecret(token) },
    select: { id: true, expiresAt: true, lastSeenAt: true, user: { select: { id: true, email: true } } },
  });
  const now = Date.now();
  if (session === null || session.expiresAt.getTime() <= now) return null;
  if (seen !== undefined && (session.lastSeenAt === null || now - session.lastSeenAt.getTime() >= SESSION_SEEN_EVERY_MS)) {
    const stale = new Date(now - SESSION_SEEN_EVERY_MS);
    await prisma.session.updateMany({
      where: { id: session.id, OR: [{ lastSeenAt: null }, { lastSeenAt: { lte: stale } }] },
      data: { lastSeenAt: new Date(now), address: seen.address, userAgent: seen.userAgent },
    });
  }
  return { ...session.user, sessionId: session.id };
}

/** Ends the session the browser holds, if any. */
export async function signOut(token: string | undefined): Promise<void> {
  if (!token || token.length > 100) return;
  const prisma = await db();
  await prisma.session.deleteMany({ where: { tokenHash: hashSecret(token) } });
}
