import type { Config } from "../config";
import { db } from "../db";
import { ApiError } from "../http/errors";
import { hashSecret, randomId, randomSecret } from "../secrets";

// The cookie holds only a random token; the database keeps its SHA-256. `__Host-` pins the
// cookie to this origin over https.
export function sessionCookieName(cfg: Config): string {
  return cfg.appUrl.startsWith("https:") ? "__Host-initlink_session" : "initlink_session";
}

export type SessionUser = { id: string; email: string };

function cookieAttributes(cfg: Config, maxAgeSeconds: number): string {
  const secure = cfg.appUrl.startsWith("https:") ? "; Secure" : "";
  return `Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure}`;
}

/** Starts a new session (a new token on every sign-in) and returns its Set-Cookie value. */
export async function startSession(cfg: Config, userId: string): Promise<string> {
  const prisma = await db();
  const token = randomSecret();
  const now = Date.now();
  await prisma.session.create({
    data: {
      id: randomId(),
      tokenHash: hashSecret(token),
      userId,
      createdAt: new Date(now),
      expiresAt: new Date(now + cfg.sessionLifetimeMs),
    },
  });
  return `${sessionCookieName(cfg)}=${token}; ${cookieAttributes(cfg, Math.floor(cfg.sessionLifetimeMs / 1000))}`;
}

export function clearedSessionCookie(cfg: Config): string {
  return `${sessionCookieName(cfg)}=; ${cookieAttributes(cfg, 0)}`;
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

export async function endSession(token: string | undefined): Promise<void> {
  if (!token || token.length > 100) return;
  const prisma = await db();
  await prisma.session.deleteMany({ where: { tokenHash: hashSecret(token) } });
}

/** The session token of a request, from its Cookie header. */
export function sessionTokenFromHeaders(cfg: Config, headers: Headers): string | undefined {
  const name = sessionCookieName(cfg);
  for (const part of (headers.get("cookie") ?? "").split(";")) {
    const separator = part.indexOf("=");
    if (separator > 0 && part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return undefined;
}

/** The id of the person signed in on a form post or fetch; a 401 carrying `message` when no one is. */
export async function signedInUserId(cfg: Config, headers: Headers, message: string): Promise<string> {
  const user = await sessionUser(sessionTokenFromHeaders(cfg, headers));
  if (user === null) throw new ApiError("unauthorized", message);
  return user.id;
}
