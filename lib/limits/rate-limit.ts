import { isIP } from "node:net";
import { db } from "../db";
import { ApiError } from "../http/errors";

// Abuse limits: fixed-window counters in the database, so that every instance counts against
// the same limit. One statement counts a request and reads the count, atomically, in SQLite
// and PostgreSQL alike. The counter stops at limit + 1: refused requests do not move it.

export type RateLimit = { name: string; limit: number; windowMs: number };

/**
 * Counts one event of `subject` against `rule` and answers the count in the current window (at
 * most limit + 1). A counter of an older window starts again; one of a newer window (another
 * instance's clock a little ahead) keeps counting there, so skewed clocks cannot reset it.
 */
async function count(rule: RateLimit, subject: string, window: number): Promise<number> {
  const prisma = await db();
  const key = `${rule.name}:${subject}`;
  const rows = await prisma.$queryRaw<{ count: number | bigint }[]>`
    INSERT INTO "RateLimit" ("key", "window", "count") VALUES (${key}, ${window}, 1)
    ON CONFLICT ("key") DO UPDATE SET
      "count" = CASE WHEN excluded."window" > "RateLimit"."window" THEN 1
                     WHEN "RateLimit"."count" <= ${rule.limit} THEN "RateLimit"."count" + 1
                     ELSE "RateLimit"."count" END,
      "window" = CASE WHEN excluded."window" > "RateLimit"."window" THEN excluded."window" ELSE "RateLimit"."window" END
    RETURNING "count"`;
  return Number(rows[0]?.count ?? 0);
}

function tooMany(rule: RateLimit, window: number, now: number): ApiError {
  const retryAfterSeconds = Math.max(1, Math.ceil(((window + 1) * rule.windowMs - now) / 1000));
  return new ApiError("rate_limited", `Too many requests: at most ${rule.limit} per ${rule.windowMs / 1000} s. Try again in ${retryAfterSeconds} s.`, {
    retryAfterSeconds,
  });
}

/**
 * Counts one request of `subject` against `rule`; over the limit, a 429 with Retry-After (the
 * end of the window). Call it after validating the request, so malformed requests cost nothing.
 */
export async function consumeRateLimit(rule: RateLimit, subject: string): Promise<void> {
  const now = Date.now();
  const window = Math.floor(now / rule.windowMs);
  if ((await count(rule, subject, window)) > rule.limit) throw tooMany(rule, window, now);
}

/** Counts one event (a failed sign-in, say) without refusing anything. */
export async function recordEvent(rule: RateLimit, subject: string): Promise<void> {
  await count(rule, subject, Math.floor(Date.now() / rule.windowMs));
}

/** The events of `subject` counted in the current window, without counting one. */
export async function countedEvents(rule: RateLimit, subject: string): Promise<number> {
  const prisma = await db();
  const row = await prisma.rateLimit.findUnique({ where: { key: `${rule.name}:${subject}` }, select: { window: true, count: true } });
  return row !== null && Number(row.window) === Math.floor(Date.now() / rule.windowMs) ? row.count : 0;
}

/** A 429 if `subject` already has `rule.limit` events in the current window. */
export async function assertUnderLimit(rule: RateLimit, subject: string): Promise<void> {
  const now = Date.now();
  if ((await countedEvents(rule, subject)) >= rule.limit) throw tooMany(rule, Math.floor(now / rule.windowMs), now);
}

/** The subject of a per-address limit: IPv4 addresses one by one, IPv6 by /64 (one host's usual share). */
export function addressSubject(address: string | null): string {
  if (address === null) return "unknown";
  if (isIP(address) !== 6) return address;
  const [head, tail = ""] = address.split("::");
  const groups = head === "" ? [] : head.split(":");
  const tailGroups = tail === "" ? [] : tail.split(":");
  const full = address.includes("::") ? [...groups, ...Array(8 - groups.length - tailGroups.length).fill("0"), ...tailGroups] : groups;
  return `${full.slice(0, 4).map((group) => group.toLowerCase().replace(/^0+(?=.)/, "")).join(":")}::/64`;
}
