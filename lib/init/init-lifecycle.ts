import { db } from "../database/db";
import { initNotPending, notFound } from "../errors";
import { RANDOM_ID_PATTERN } from "../secrets";

// An init's states: pending until approved (done), denied, or past its expiry (expired). Done
// and denied are stored; expired is read from the clock, so an init expires on time whether or
// not anything has swept it. Every change out of pending is one conditional update.

export type InitStatus = "pending" | "done" | "denied" | "expired";

/** A stored status read at `now`: a pending init past its expiry is expired, swept or not. */
export function effectiveStatus(stored: string, expiresAt: Date, now: number): InitStatus {
  if (stored === "done" || stored === "denied") return stored;
  return expiresAt.getTime() <= now ? "expired" : "pending";
}

export const initNotFound = () => notFound("No init with this id exists.");

export const NOT_PENDING: Record<Exclude<InitStatus, "pending">, string> = {
  done: "This request has already been approved.",
  denied: "This request has been denied.",
  expired: "This request has expired. Start again in your terminal.",
};

/** The init, if it can still be approved or denied; a 404 or a 409 naming its state if not. */
export async function pendingInit(id: string) {
  if (!RANDOM_ID_PATTERN.test(id)) throw initNotFound();
  const prisma = await db();
  const init = await prisma.init.findUnique({ where: { id }, select: { id: true, status: true, expiresAt: true, userCode: true, userCodeShown: true, observedIp: true, codeEnteredSessionId: true, authorizationRequest: { select: { initId: true } } } });
  if (init === null) throw initNotFound();
  const status = effectiveStatus(init.status, init.expiresAt, Date.now());
  if (status !== "pending") throw initNotPending(NOT_PENDING[status]);
  return init;
}
