import type { Config } from "../config";
import { ApiError } from "../errors";
import { RANDOM_ID_PATTERN } from "../secrets";
import { enterWaitingRoom } from "../waiting-room";
import { watchInit } from "./init-events";
import { effectiveStatus, initNotFound, type InitStatus } from "./init-lifecycle";
import { readInitRow, statusAnswer, type InitRow } from "./read-init-status";

// `GET /api/init/{id}/events`: the init's status as Server-Sent Events, for the init page (and
// any client that prefers a stream to polling). One event per status, each the status answer an
// anonymous poller gets, with the status as its id: an init has at most two (pending, then a
// final one), and the id means the same on every instance, so a reconnect (Last-Event-ID) never
// repeats an event, wherever it lands. The stream closes after the final event; a reconnect
// after it gets 204, which stops an EventSource.
//
// A stream is not a poll and does not move the poll clock: two tabs of one browser must both
// follow the init, and a stream reads the row only when a change is noticed or the init
// expires. Instead, open streams are bounded per init (in each process), and with the held
// requests by the process's waiting room (lib/waiting-room.ts).

export const HEARTBEAT_MS = 15_000;
const REREAD_HEARTBEATS = 4;
export const MAX_STREAMS_PER_INIT = 16;

const FINAL: readonly InitStatus[] = ["done", "denied", "expired"];
const isStatus = (value: string | null): value is InitStatus => value === "pending" || (value !== null && (FINAL as string[]).includes(value));

const open = new Map<string, number>();
/** A stream has no secret and never records where it came from. */
const noOrigin = () => ({ address: null, userAgent: null });

const encoder = new TextEncoder();

function event(id: InitStatus, data: unknown): Uint8Array {
  return encoder.encode(`id: ${id}\ndata: ${JSON.stringify(data)}\n\n`);
}

/**
 * The init's event stream, or null when the client has already seen the final event. Every
 * refusal (unknown id, too many streams) is thrown before anything is streamed.
 */
export async function openInitEventStream(cfg: Config, id: string, lastEventId: string | null, signal: AbortSignal): Promise<ReadableStream<Uint8Array> | null> {
  if (!RANDOM_ID_PATTERN.test(id)) throw initNotFound();
  const lastSeen = lastEventId?.trim() ?? null;
  const seen = isStatus(lastSeen) ? lastSeen : null;
  if (seen !== null && FINAL.includes(seen)) return null;
  // Watched before the read: a change committed after it still reaches the stream.
  const watch = watchInit(id, "eventStream");
  let init: InitRow | null;
  let leaveWaitingRoom: () => void;
  try {
    init = await readInitRow(id);
    if (init === null) throw initNotFound();
    const retryInSeconds = Math.ceil(init.intervalMs / 1000);
    if ((open.get(id) ?? 0) >= MAX_STREAMS_PER_INIT) {
      throw new ApiError("rate_limited", `At most ${MAX_STREAMS_PER_INIT} event streams per init at once.`, { retryInSeconds });
    }
    const left = enterWaitingRoom(cfg);
    if (left === null) throw new ApiError("server_busy", "This server holds as many waiting requests as it can. Poll the status instead.", { retryInSeconds });
    leaveWaitingRoom = left;
  } catch (error) {
    watch.close();
    throw error;
  }
  open.set(id, (open.get(id) ?? 0) + 1);
  // Ends the stream's wait when the client goes (the request's signal) or cancels the stream.
  const stop = new AbortController();
  const stopped = AbortSignal.any([signal, stop.signal]);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    stop.abort();
    watch.close();
    leaveWaitingRoom();
    const left = (open.get(id) ?? 1) - 1;
    if (left === 0) open.delete(id);
    else open.set(id, left);
  };

  async function follow(controller: ReadableStreamDefaultController<Uint8Array>, first: InitRow): Promise<void> {
    let row = first;
    let sent = seen;
    let heartbeats = 0;
    const expiresAt = row.expiresAt.getTime();
    // EventSource reconnects after the init's interval: a dropped stream is no faster than a poll.
    controller.enqueue(encoder.encode(`retry: ${row.intervalMs}\n\n`));
    while (!released) {
      const now = Date.now();
      const status = effectiveStatus(row.status, row.expiresAt, now);
      if (status !== sent) {
        // No secret, so no pickup: there is no origin to record.
        controller.enqueue(event(status, await statusAnswer(cfg, row, status, now, null, noOrigin)));
        sent = status;
      }
      if (status !== "pending") return;
      const heartbeatAt = now + HEARTBEAT_MS;
      const end = await watch.next(Math.min(heartbeatAt, expiresAt), stopped);
      // Stopping: closed, and the EventSource reconnects (after `retry`) to a running process.
      if (end === "aborted" || end === "stopping") return;
      // Which deadline it was, from the deadlines themselves: a timer may end a moment before
      // Date.now() reaches the expiry, and that wait was for the expiry, not a heartbeat.
      heartbeats = end === "deadline" && heartbeatAt < expiresAt ? heartbeats + 1 : 0;
      if (heartbeats > 0) controller.enqueue(encoder.encode(": heartbeat\n\n"));
      // A lost notice must not leave the stream on pending until expiry: the row is read again
      // on every notice, at expiry, and every REREAD_HEARTBEATS heartbeats (a held wait's cap).
      if (heartbeats % REREAD_HEARTBEATS === 0) row = (await readInitRow(id)) ?? row;
    }
  }

  return new ReadableStream<Uint8Array>({
    start(controller) {
      follow(controller, init).then(
        () => {
          if (!released) controller.close();
          release();
        },
        (error: unknown) => {
          if (!released) controller.error(error);
          release();
        },
      );
    },
    cancel: release,
  });
}
