import { counterTable, directSql } from "../database/direct-sql";
import { slowDown } from "../errors";

// RFC 8628 §3.5: a client polling faster than the interval is told to slow down. Only accepted
// polls move the clock, so a too-fast poll never pushes the next allowed one further out.
//
// One clock per init and per kind of poller: the holder of the init's secret (its CLI), and
// anyone else (the person's browser, or anyone who learnt the id). Nothing a client can vary at
// will (address, User-Agent, the spelling of its Authorization header) opens a clock of its own.
//
// The clock is one row per (init, poller) updated in place, kept out of the durable-flush path:
// losing it to a power cut lets at most one poll through early, so it is not worth an fsync per
// accepted poll. On SQLite it lives in the counters' side file, attached with synchronous=NORMAL
// in WAL mode (commits do not fsync; lib/database/db.ts), on PostgreSQL in an UNLOGGED table (no WAL, no flush).

export type Poller = "secret_holder" | "anyone";

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
  const accepted = await sql.run(
    `INSERT INTO ${table} ("initId", "poller", "lastPolledAt") VALUES (?, ?, ?)
     ON CONFLICT ("initId", "poller") DO UPDATE SET "lastPolledAt" = excluded."lastPolledAt"
     WHERE "InitPollClock"."lastPolledAt" <= ?`,
    [initId, poller, now, onTimeSince],
  );
  if (accepted === 1) return;
  const row = await sql.one<{ lastPolledAt: number | string }>(`SELECT "lastPolledAt" FROM ${table} WHERE "initId" = ? AND "poller" = ?`, [initId, poller]);
  const waitMs = row === undefined ? intervalMs : Number(row.lastPolledAt) + intervalMs - now;
  throw slowDown(intervalMs, waitMs);
}

/** Drops the clocks of inits that no longer exist (the sweep deletes the inits). */
export async function sweepPollClocks(): Promise<number> {
  const sql = await directSql();
  return sql.run(`DELETE FROM ${counterTable("InitPollClock")} WHERE NOT EXISTS (SELECT 1 FROM "Init" WHERE "Init"."id" = "InitPollClock"."initId")`, []);
}
