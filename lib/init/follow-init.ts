import type { StreamStep } from "../../server/event-stream.mjs";
import type { EventSource } from "../api/event-stream";
import type { Config } from "../config";
import { rateLimited, secondsToWait } from "../errors";
import { MAX_STREAMS_PER_INIT } from "../limits/rules";
import { RANDOM_ID_PATTERN } from "../secrets";
import { watchInit, type WaitEnd } from "./init-events";
import { effectiveStatus, initNotFound, type InitStatus } from "./init-lifecycle";
import { readInitRow, statusAnswer, type InitRow } from "./read-init-status";

// The init's changes, for a follower (`GET /api/init/{id}/events`, framed as Server-Sent Events
// by server/event-stream.mjs, in the route handler or, parked between steps, at the production
// server's edge: server/parking.mjs): one change per status, each the status answer an anonymous
// poller gets, with the status as its id. An init has at most two (pending, then a final one),
// and the id means the same on every instance, so a follower that comes back with the last id
// it saw never gets a change twice, wherever it lands. The changes end after the final one.
//
// Following is not polling and does not move the poll clock: two tabs of one browser must both
// follow the init, and a follower reads the row only when a change is noticed, at expiry, and
// every REREAD_MS. Instead, followers are bounded per init (in each process), and by the
// process's waiting room (at the edge).

/** A lost notice delays a change by at most this: the row is read again that often whatever notices say. */
export const REREAD_MS = 60_000;

const FINAL: readonly InitStatus[] = ["done", "denied", "expired"];
const isStatus = (value: string | null): value is InitStatus => value === "pending" || (value !== null && (FINAL as string[]).includes(value));

/** A follower: the init's changes one step at a time (lib/api/event-stream.ts), each event a status and its status answer. */
export type InitFollower = EventSource;

const following = new Map<string, number>();
/** A follower has no secret and never records where it came from. */
const noOrigin = () => ({ address: null, userAgent: null });

/**
 * Follows the init, or answers null when the follower has already seen its final status
 * (`lastSeen`). Every refusal (unknown id, too many followers) is thrown before anything is
 * followed. The follower is counted until close().
 */
export async function followInit(cfg: Config, id: string, lastSeen: string | null): Promise<InitFollower | null> {
  if (!RANDOM_ID_PATTERN.test(id)) throw initNotFound();
  const trimmed = lastSeen?.trim() ?? null;
  const seen = isStatus(trimmed) ? trimmed : null;
  if (seen !== null && FINAL.includes(seen)) return null;
  // Watched before the read: a change committed after it still reaches the follower.
  const watch = watchInit(id, "eventStream");
  let first: InitRow | null;
  try {
    first = await readInitRow(id);
    if (first === null) throw initNotFound();
    if ((following.get(id) ?? 0) >= MAX_STREAMS_PER_INIT) {
      throw rateLimited(`At most ${MAX_STREAMS_PER_INIT} event streams per init at once.`, secondsToWait(first.intervalMs));
    }
  } catch (error) {
    watch.close();
    throw error;
  }
  following.set(id, (following.get(id) ?? 0) + 1);
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    watch.close();
    const left = (following.get(id) ?? 1) - 1;
    if (left === 0) following.delete(id);
    else following.set(id, left);
  };

  let row = first;
  let sent = seen;
  let until = 0;
  /** The change due now, if any: after the first read, the row is read again whenever a wait ends. */
  async function step(end: WaitEnd | null): Promise<StreamStep> {
    // Stopping: the follower comes back (after the interval) to a running process.
    if (closed || end === "aborted" || end === "stopping") return { event: null, more: false };
    if (end !== null) row = (await readInitRow(id)) ?? row;
    const now = Date.now();
    const status = effectiveStatus(row.status, row.expiresAt, now);
    const event = status === sent ? null : { id: status, data: await statusAnswer(cfg, row, status, now, null, noOrigin) };
    sent = status;
    until = Math.min(now + REREAD_MS, row.expiresAt.getTime());
    return { event, more: status === "pending" };
  }

  return { retryMs: first.intervalMs, step, wait: (signal) => watch.next(until, signal), close };
}
