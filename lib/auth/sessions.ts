import type { Config } from "../config";
import { db } from "../database/db";
import { hashSecret, randomId, randomSecret } from "../secrets";

// Browser sessions: a random token in the cookie, its SHA-256 in the database.

export type SessionUser = { id: string; email: string };

/** Starts a new session (a new token on every sign-in) and returns its token, for the browser's cookie. */
export async function startSession(cfg: Config, userId: string): Promise<string> {
  const prisma = await db();
  const token = randomSecret();
  const now = Date.now();
  await prisma.session.create({
    data: { id: randomId(), tokenHash: hashSecret(token), userId, createdAt: new Date(now), expiresAt: new Date(now + cfg.sessionLifetimeMs) },
  });
  return token;
}

export async function sessionUser(token: string | undefined): Promise<SessionUser | null> {
  if (!token || token.length > 100) return null;
  const prisma = await db();
  const session = await prisma.session.findUnique({
    where: { tokenHash: hashSecret(token) },
    select: { expiresAt: true, user: { select: { id: true, email: true } } },
  });
  if (session === null || session.expiresAt.getTime() <= Date.now()) return null;
  return session.user;
}

/** Ends the session the browser holds, if any. */
export async function signOut(token: string | undefined): Promise<void> {
  if (!token || token.length > 100) return;
  const prisma = await db();
  await prisma.session.deleteMany({ where: { tokenHash: hashSecret(token) } });
}
