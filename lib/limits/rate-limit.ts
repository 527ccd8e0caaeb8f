import { isIP } from "node:net";
import { db } from "../db";
import { ApiError } from "../errors";

// Abuse limits: fixed-window counters in the database, so that every instance counts against
// the same limit. Conditional statements in SQL that SQLite and PostgreSQL share count a
// request only while there is room: a refused request writes nothing.

export type RateLimit = { name: string; limit: number; windowMs: number };

/**
 * Counts one event of `subject` against `rule` if the current window has room; false, writing
 * nothing, if it has not. Either the counter of the current window goes up while under the
 * limit, or a counter of an older window (or none) starts again at 1. A counter of a newer
 * window (another instance's clock a little ahead) is counted in, so skewed clocks cannot reset
 * it. Both statements are conditional, so concurrent requests never overshoot the limit.
 */
async function countIfRoom(rule: RateLimit, subject: string, window: number): Promise<boolean> {
  const prisma = await db();
  const key = `${rule.name}:${subject}`;
  for (let attempt = 0; attempt < 2; attempt++) {
    const counted = await prisma.$executeRaw`
      UPDATE "RateLimit" SET "count" = "count" + 1
      WHERE "key" = ${key} AND "window" >= ${window} AND "count" < ${rule.limit}`;
    if (counted === 1) return true;
    const started = await prisma.$executeRaw`
      INSERT INTO "RateLimit" ("key", "window", "count") VALUES (${key}, ${window}, 1)
      ON CONFLICT ("key") DO UPDATE SET "window" = excluded."window", "count" = 1
      WHERE "RateLimit"."window" < excluded."window"`;
    if (started === 1) return true;
    // Neither: the window is full, or a concurrent request started it first; look once more.
  }
  return false;
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
  if (!(await countIfRoom(rule, subject, window))) throw tooMany(rule, window, now);
}

/** Counts one event (a failed sign-in, say) without refusing anything; a full window stays full. */
export async function recordEvent(rule: RateLimit, subject: string): Promise<void> {
  await countIfRoom(rule, subject, Math.floor(Date.now() / rule.windowMs));
}

/** The events of `subject` counted in the current window, without counting one. */
export async function countedEvents(rule: RateLimit, subject: string): Promise<number> {
  const prisma = await db();
  const row = await prisma.rateLimit.findUnique({ where: { key: `${rule.name}:${subject}` }, select: { window: true, count: true } });
  return row !== null && Number(row.window) >= Math.floor(Date.now() / rule.windowMs) ? row.count : 0;
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
