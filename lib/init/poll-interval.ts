import { createHash } from "node:crypto";
import { db } from "../db";
import { ApiError } from "../errors";

// RFC 8628 §3.5: a client polling faster than the interval is told to slow down. Only accepted
// polls move the clock, so a too-fast poll never pushes the next allowed one further out.

// A poll counts as on time when at least this share of the interval has passed since the
// poller's last accepted poll: network jitter must never slow down a client that keeps time.
export const POLL_TOLERANCE = 0.25;

/** Who is polling: the CLI and the person's browser differ in address, user agent or credentials. */
export function pollerKey(address: string | null, userAgent: string | null, authorization: string | null): string {
  return createHash("sha256").update(`${address ?? ""}\n${userAgent ?? ""}\n${authorization ?? ""}`).digest("base64url");
}

/**
 * Records an on-time poll of `key`, or refuses a fast one with `slow_down`, in one statement
 * (an upsert whose syntax SQLite and PostgreSQL share), so two concurrent polls cannot both pass.
 */
export async function admitPoll(initId: string, key: string, intervalMs: number, now: number): Promise<void> {
  const prisma = await db();
  const polledAt = new Date(now);
  const onTimeSince = new Date(now - Math.floor(intervalMs * (1 - POLL_TOLERANCE)));
  const accepted = await prisma.$executeRaw`
    INSERT INTO "InitPoll" ("initId", "pollerKey", "lastPolledAt") VALUES (${initId}, ${key}, ${polledAt})
    ON CONFLICT ("initId", "pollerKey") DO UPDATE SET "lastPolledAt" = excluded."lastPolledAt"
    WHERE "InitPoll"."lastPolledAt" <= ${onTimeSince}`;
  if (accepted === 1) return;
  const last = await prisma.initPoll.findUnique({ where: { initId_pollerKey: { initId, pollerKey: key } } });
  const waitMs = last ? last.lastPolledAt.getTime() + intervalMs - now : intervalMs;
  throw new ApiError("slow_down", `Polling too fast: wait ${intervalMs} ms between requests.`, {
    interval: intervalMs,
    retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
  });
}
