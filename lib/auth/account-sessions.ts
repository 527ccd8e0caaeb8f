import { db, statementsInOneTransaction } from "../database/db";
import { ApiError, notFound } from "../errors";
import type { RequestOrigin } from "../request-origin";
import { RANDOM_ID_PATTERN } from "../secrets";
import { replacementSession, type SessionUser } from "./sessions";

// /settings/sessions: the account's signed-in browsers, and signing one or all others out.
// Every statement names the account, so one person can never end another's session.

export type SessionSummary = {
  id: string;
  createdAt: Date;
  userAgent: string | null;
  address: string | null;
  lastSeenAt: Date | null;
  /** The session of the browser looking at the list. */
  current: boolean;
};

/** The account's unexpired sessions, the one making the request first, then by last seen. */
export async function listSessions(userId: string, currentSessionId: string): Promise<SessionSummary[]> {
  const prisma = await db();
  const rows = await prisma.session.findMany({
    where: { userId, expiresAt: { gt: new Date() } },
    select: { id: true, createdAt: true, userAgent: true, address: true, lastSeenAt: true },
    orderBy: [{ lastSeenAt: "desc" }, { createdAt: "desc" }],
  });
  const sessions = rows.map((row) => ({ ...row, current: row.id === currentSessionId }));
  return [...sessions.filter((session) => session.current), ...sessions.filter((session) => !session.current)];
}

/** Signs one of the account's sessions out; the browser holding it is signed out at its next request. */
export async function signOutSession(userId: string, sessionId: string): Promise<void> {
  if (!RANDOM_ID_PATTERN.test(sessionId)) throw notFound("You have no session with this id.");
  const prisma = await db();
  const { count } = await prisma.session.deleteMany({ where: { id: sessionId, userId } });
  if (count === 0) throw notFound("You have no session with this id.");
}

/**
 * Signs out every other session of the account, and gives this browser a new session in place of
 * its own, in one transaction: a copy of this browser's cookie, wherever it went, is signed out
 * too. Returns how many other sessions ended and the new session's token; nothing ends if this
 * browser's own session ended meanwhile.
 */
export async function signOutOtherSessions(user: SessionUser, origin: RequestOrigin): Promise<{ ended: number; token: string }> {
  const prisma = await db();
  const session = replacementSession(prisma, user.sessionId, origin);
  const [, started, { count }] = await statementsInOneTransaction([
    // Takes the old session's row first: of concurrent requests with one session, the others
    // wait here (PostgreSQL), then find it gone and insert nothing.
    prisma.session.updateMany({ where: { id: user.sessionId }, data: { lastSeenAt: new Date() } }),
    session.insert,
    prisma.session.deleteMany({ where: { userId: user.id, id: { not: session.id }, user: { is: { sessions: { some: { id: session.id } } } } } }),
  ]);
  if (started === 0) throw new ApiError("unauthorized", "Sign in first.");
  // The browser's old session was one of those deleted.
  return { ended: count - 1, token: session.token };
}
