import { db } from "../database/db";
import { notFound } from "../errors";
import { RANDOM_ID_PATTERN } from "../secrets";

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

/** Signs out every session of the account but `keptSessionId`; returns how many ended. */
export async function signOutOtherSessions(userId: string, keptSessionId: string): Promise<number> {
  const prisma = await db();
  const { count } = await prisma.session.deleteMany({ where: { userId, id: { not: keptSessionId } } });
  return count;
}
