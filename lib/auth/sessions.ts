import type { Config } from "../config";
import { db } from "../db";
import { hashSecret, randomId, randomSecret } from "../secrets";
import { clearedSessionCookie, sessionCookie } from "./session-cookie";

// Browser sessions: a random token in the cookie, its SHA-256 in the database.

export type SessionUser = { id: string; email: string };

/** Starts a new session (a new token on every sign-in) and returns its Set-Cookie value. */
export async function startSession(cfg: Config, userId: string): Promise<string> {
  const prisma = await db();
  const token = randomSecret();
  const now = Date.now();
  await prisma.session.create({
    data: { id: randomId(), tokenHash: hashSecret(token), userId, createdAt: new Date(now), expiresAt: new Date(now + cfg.sessionLifetimeMs) },
  });
  return sessionCookie(cfg, token);
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

/** Ends the session the browser holds, if any; returns the Set-Cookie value that clears it. */
export async function signOut(cfg: Config, token: string | undefined): Promise<string> {
  if (token && token.length <= 100) {
    const prisma = await db();
    await prisma.session.deleteMany({ where: { tokenHash: hashSecret(token) } });
  }
  return clearedSessionCookie(cfg);
}
