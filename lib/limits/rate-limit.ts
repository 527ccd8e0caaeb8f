import { isIP } from "node:net";
import { counterTable, directSql } from "../database/direct-sql";
import { rateLimited, secondsToWait, type ApiError } from "../errors";

// Abuse limits: fixed-window counters in the database, so that every instance counts against
// the same limit; in the counters' table, kept out of the durable-flush path (lib/database/db.ts), and
// on the driver itself (lib/database/direct-sql.ts): Create Init takes a unit on every request.
// Conditional statements in SQL that SQLite and PostgreSQL share take a unit before the work,
// only while there is room (a refused request writes nothing), so concurrent requests never
// overshoot; a request the rules do not count gives its unit back afterwards.

export type RateLimit = { name: string; limit: number; windowMs: number };

/** A unit taken from a window, to give back if the rules say the request does not count after all. */
export type TakenUnit = {
  key: string;
  window: number;
  /** The counter of an ended window that taking this unit replaced, restored if the unit goes back. */
  replaced: Counter | null;
};

type Counter = { window: number; count: number };

/** The counter of `key`, if there is one. */
async function readCounter(key: string): Promise<Counter | null> {
  const sql = await directSql();
  const row = await sql.one<{ window: number | string; count: number | string }>(`SELECT "window", "count" FROM ${counterTable("RateLimit")} WHERE "key" = ?`, [key]);
  return row === undefined ? null : { window: Number(row.window), count: Number(row.count) };
}

/**
 * Takes one unit of `subject` against `rule` if the current window has room; null, writing
 * nothing, if it has not. Either the counter of the current window goes up while under the
 * limit, or a counter starts at 1: a new one, or in place of one of an ended window (which the
 * unit remembers). A counter of a newer window (another instance's clock a little ahead) is
 * counted in, so skewed clocks cannot reset it. Every statement is conditional, so concurrent
 * requests never overshoot the limit.
 */
async function takeIfRoom(rule: RateLimit, subject: string, window: number): Promise<TakenUnit | null> {
  const sql = await directSql();
  const table = counterTable("RateLimit");
  const key = `${rule.name}:${subject}`;
  for (let attempt = 0; attempt < 3; attempt++) {
    const counted = await sql.one<{ window: number | string }>(
      `UPDATE ${table} SET "count" = "count" + 1 WHERE "key" = ? AND "window" >= ? AND "count" < ? RETURNING "window"`,
      [key, window, rule.limit],
    );
    if (counted !== undefined) return { key, window: Number(counted.window), replaced: null };
    const started = await sql.run(`INSERT INTO ${table} ("key", "window", "count") VALUES (?, ?, 1) ON CONFLICT ("key") DO NOTHING`, [key, window]);
    if (started === 1) return { key, window, replaced: null };
    const row = await readCounter(key);
    if (row !== null && row.window >= window && row.count >= rule.limit) return null;
    if (row !== null && row.window < window) {
      const restarted = await sql.run(`UPDATE ${table} SET "window" = ?, "count" = 1 WHERE "key" = ? AND "window" = ? AND "count" = ?`, [
        window,
        key,
        row.window,
        row.count,
      ]);
      if (restarted === 1) return { key, window, replaced: row };
    }
    // A concurrent request changed the counter between two statements: look once more.
  }
  return null;
}

/** The error a refused request gets: from the rule and the whole seconds until its window ends. */
export type Refusal = (rule: RateLimit, retryInSeconds: number) => ApiError;

const tooMany: Refusal = (rule, retryIn) => rateLimited(`Too many requests: at most ${rule.limit} per ${rule.windowMs / 1000} s. Try again in ${retryIn} s.`, retryIn);

/**
 * Takes one unit of `subject`'s current window before the work it pays for; over the limit, a
 * 429 with Retry-After (the end of the window), writing nothing: `rate_limited` unless `refuse`
 * says otherwise. Call it after validating the request, so malformed requests cost nothing.
 */
export async function consumeRateLimit(rule: RateLimit, subject: string, refuse: Refusal = tooMany): Promise<TakenUnit> {
  const now = Date.now();
  const window = Math.floor(now / rule.windowMs);
  const unit = await takeIfRoom(rule, subject, window);
  if (unit === null) throw refuse(rule, secondsToWait((window + 1) * rule.windowMs - now));
  return unit;
}

/**
 * Gives a taken unit back, for a request the rules do not count (a refused link, a correct
 * password): only to the window it was taken from, never below zero. A counter the unit started
 * goes back to what it replaced (an ended window's counter, or none), so a request that ends up
 * not counting leaves the table as it found it. Conditional statements: a concurrent change
 * between them is looked at once more.
 */
export async function giveBack(unit: TakenUnit): Promise<void> {
  const sql = await directSql();
  const table = counterTable("RateLimit");
  if (unit.replaced !== null) {
    const restored = await sql.run(`UPDATE ${table} SET "window" = ?, "count" = ? WHERE "key" = ? AND "window" = ? AND "count" = 1`, [
      unit.replaced.window,
      unit.replaced.count,
      unit.key,
      unit.window,
    ]);
    if (restored === 1) return;
  }
  for (let attempt = 0; attempt < 3; attempt++) {
    const lowered = await sql.run(`UPDATE ${table} SET "count" = "count" - 1 WHERE "key" = ? AND "window" = ? AND "count" > 1`, [unit.key, unit.window]);
    if (lowered === 1) return;
    const deleted = await sql.run(`DELETE FROM ${table} WHERE "key" = ? AND "window" = ? AND "count" = 1`, [unit.key, unit.window]);
    if (deleted === 1) return;
    const row = await readCounter(unit.key);
    if (row === null || row.window !== unit.window) return;
  }
}

/** Runs `work` with a unit of `subject` taken first, given back if it throws: only answered requests count. */
export async function countedUnlessRefused<T>(rule: RateLimit, subject: string, work: () => Promise<T>, refuse: Refusal = tooMany): Promise<T> {
  const unit = await consumeRateLimit(rule, subject, refuse);
  try {
    return await work();
  } catch (error) {
    await giveBack(unit);
    throw error;
  }
}

/** Counts one event (a failed sign-in, say) without refusing anything; a full window stays full. */
export async function recordEvent(rule: RateLimit, subject: string): Promise<void> {
  await takeIfRoom(rule, subject, Math.floor(Date.now() / rule.windowMs));
}

/** The events of `subject` counted in the current window, without counting one. */
export async function countedEvents(rule: RateLimit, subject: string): Promise<number> {
  const row = await readCounter(`${rule.name}:${subject}`);
  return row !== null && row.window >= Math.floor(Date.now() / rule.windowMs) ? row.count : 0;
}

/** Deletes the counters of `rule` whose window ended before `now`'s (lib/maintenance/sweep.ts). */
export async function sweepEndedWindows(rule: RateLimit, now: number): Promise<number> {
  const sql = await directSql();
  // Rule names are our own constants, free of LIKE's wildcards.
  return sql.run(`DELETE FROM ${counterTable("RateLimit")} WHERE "key" LIKE ? AND "window" < ?`, [`${rule.name}:%`, Math.floor(now / rule.windowMs)]);
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
