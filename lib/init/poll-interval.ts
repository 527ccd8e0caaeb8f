import { counterTable, directSql } from "../database/direct-sql";
import { slowDown } from "../errors";
import { addressSubject } from "../limits/rate-limit";

// RFC 8628 §3.5: a client polling faster than the interval is told to slow down. Only accepted
// polls move the clock, so a too-fast poll never pushes the next allowed one further out.
//
// One clock per init and poller, so that no reader is ever refused because of another: the
// holder of the init's secret (its CLI); a signed-in person (the init page's own polling, when
// its event stream is blocked); and every other reader by its address (IPv6 by /64), as existing
// clients that never send the secret, or anyone who learnt the id. One clock for all of those let
// the page's polling, or a stranger polling every 3.8 s, answer a real client's every poll with
// slow_down. What a client varies at will (User-Agent, the spelling of its Authorization header)
// opens no clock of its own; a new address does, as it would buy a new client anyway.
//
// The clock is one row per (init, poller) updated in place, kept out of the durable-flush path:
// losing it to a power cut lets at most one poll through early, so it is not worth an fsync per
// accepted poll. On SQLite it lives in the counters' side file, attached with synchronous=NORMAL
// in WAL mode (commits do not fsync; lib/database/db.ts), on PostgreSQL in an UNLOGGED table (no WAL, no flush).

export type Poller = { kind: "secret_holder" } | { kind: "viewer"; userId: string } | { kind: "reader"; address: string | null };

/** A poller's clock, as the `poller` column holds it. */
export function pollerKey(poller: Poller): string {
  if (poller.kind === "secret_holder") return "secret_holder";
  if (poller.kind === "viewer") return `viewer:${poller.userId}`;
  return `reader:${addressSubject(poller.address)}`;
}

// A poll counts as on time when at least this share of the interval has passed since the
// poller's last accepted poll: network jitter must never slow down a client that keeps time.
export const POLL_TOLERANCE = 0.25;

/**
 * Records an on-time poll, or refuses a fast one with `slow_down`, in one statement (an upsert
 * whose syntax SQLite and PostgreSQL share), so two concurrent polls cannot both pass. On the
 * driver itself: it runs on every poll (lib/database/direct-sql.ts).
 */
export async function admitPoll(initId: string, poller: Poller, intervalMs: number, now: number): Promise<void> {
  const sql = await directSql();
  const table = counterTable("InitPollClock");
  const onTimeSince = now - Math.floor(intervalMs * (1 - POLL_TOLERANCE));
  const key = pollerKey(poller);
  const accepted = await sql.run(
    `INSERT INTO ${table} ("initId", "poller", "lastPolledAt") VALUES (?, ?, ?)
     ON CONFLICT ("initId", "poller") DO UPDATE SET "lastPolledAt" = excluded."lastPolledAt"
     WHERE "InitPollClock"."lastPolledAt" <= ?`,
    [initId, key, now, onTimeSince],
  );
  if (accepted === 1) return;
  const row = await sql.one<{ lastPolledAt: number | string }>(`SELECT "lastPolledAt" FROM ${table} WHERE "initId" = ? AND "poller" = ?`, [initId, key]);
  const waitMs = row === undefined ? intervalMs : Number(row.lastPolledAt) + intervalMs - now;
  throw slowDown(intervalMs, waitMs);
}

/** Drops the clocks of inits that no longer exist (the sweep deletes the inits). */
export async function sweepPollClocks(): Promise<number> {
  const sql = await directSql();
  return sql.run(`DELETE FROM ${counterTable("InitPollClock")} WHERE NOT EXISTS (SELECT 1 FROM "Init" WHERE "Init"."id" = "InitPollClock"."initId")`, []);
}
