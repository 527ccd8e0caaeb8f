import { counterTable, directSql, placeholders } from "../database/direct-sql";
import { rateLimited, secondsToWait } from "../errors";
import type { RateLimit } from "./rate-limit";

// Limits work in flight, not work per window: `rule.limit` slots per subject, each a lease row in
// the rate-limit table (key `<rule>:<subject>:<slot>`, its window column the lease's expiry in
// ms), shared by every instance. A slot is taken by one conditional upsert (free or expired)
// and released by deleting the row only if it still holds this lease; a crashed holder's lease
// expires by itself, so nothing stays locked. `rule.windowMs` is 1: the sweep deletes leases
// whose expiry has passed.

export type Lease = { key: string; expiresAt: number };

/**
 * Takes one of `rule.limit` slots of `subject` for at most `holdMs`; all taken, a 429 whose
 * Retry-After is the time until the first lease must end.
 */
export async function takeSlot(rule: RateLimit, subject: string, holdMs: number): Promise<Lease> {
  const sql = await directSql();
  const now = Date.now();
  const expiresAt = now + holdMs;
  const table = counterTable("RateLimit");
  const keys = Array.from({ length: rule.limit }, (_, slot) => `${rule.name}:${subject}:${slot}`);
  for (const key of keys) {
    const taken = await sql.run(
      `INSERT INTO ${table} ("key", "window", "count") VALUES (?, ?, 1)
       ON CONFLICT ("key") DO UPDATE SET "window" = excluded."window", "count" = 1
       WHERE "RateLimit"."window" <= ?`,
      [key, expiresAt, now],
    );
    if (taken === 1) return { key, expiresAt };
  }
  const leases = await sql.all<{ window: number | string }>(`SELECT "window" FROM ${table} WHERE "key" IN (${placeholders(keys)})`, keys);
  const firstEnd = Math.min(...leases.map((lease) => Number(lease.window)), expiresAt);
  const retryIn = secondsToWait(firstEnd - now);
  throw rateLimited(`Too many attempts at once: at most ${rule.limit} at a time. Try again in ${retryIn} s.`, retryIn);
}

/** Ends a lease; a lease that expired and was taken by another request is left alone. */
export async function releaseSlot(lease: Lease): Promise<void> {
  const sql = await directSql();
  await sql.run(`DELETE FROM ${counterTable("RateLimit")} WHERE "key" = ? AND "window" = ?`, [lease.key, lease.expiresAt]);
}
