// Server-Sent Events (the WHATWG HTML standard, §9.2), in one place: a source's events framed
// as `id:` and `data:` lines, `retry:` first, and a comment line as a heartbeat whenever
// HEARTBEAT_MS pass without one, so that proxies keep the connection open.

export const HEARTBEAT_MS = 15_000;

/**
 * A stream ends after this however long its source goes on: the client (an EventSource) comes
 * back after `retry` with `Last-Event-ID` and misses nothing, and a stream left open by someone
 * who is not reading gives its place in the waiting room back instead of keeping it until the
 * init expires.
 */
export const STREAM_LIFETIME_MS = 5 * 60_000;

/** What a stream follows: how soon a dropped client should come back, the events, and close() to let go at once. */
export type EventSource = { retryMs: number; changes: AsyncIterable<{ id: string; data: unknown }>; close: () => void };

const encoder = new TextEncoder();

/** The source's events as a stream; `ended` runs once when it ends, whether it finished or the client went. */
export function eventStream(source: EventSource, ended: () => void): ReadableStream<Uint8Array> {
  const events = source.changes[Symbol.asyncIterator]();
  let over = false;
  const end = () => {
    if (over) return;
    over = true;
    source.close();
    ended();
  };

  async function pump(controller: ReadableStreamDefaultController<Uint8Array>): Promise<void> {
    // EventSource reconnects after `retry`: a dropped stream comes back no faster than a poll.
    controller.enqueue(encoder.encode(`retry: ${source.retryMs}\n\n`));
    let next = events.next();
    let lifetimeTimer: ReturnType<typeof setTimeout> | undefined;
    const lifetime = new Promise<"lifetime">((resolve) => (lifetimeTimer = setTimeout(resolve, STREAM_LIFETIME_MS, "lifetime")));
    try {
      while (!over) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const heartbeat = new Promise<"heartbeat">((resolve) => (timer = setTimeout(resolve, HEARTBEAT_MS, "heartbeat")));
        const result = await Promise.race([next, heartbeat, lifetime]);
        clearTimeout(timer);
        if (over || result === "lifetime") return;
        if (result === "heartbeat") {
          controller.enqueue(encoder.encode(": heartbeat\n\n"));
          continue;
        }
        if (result.done) return;
        controller.enqueue(encoder.encode(`id: ${result.value.id}\ndata: ${JSON.stringify(result.value.data)}\n\n`));
        next = events.next();
      }
    } finally {
      clearTimeout(lifetimeTimer);
    }
  }

  return new ReadableStream<Uint8Array>({
    start(controller) {
      pump(controller).then(
        () => {
          if (!over) controller.close();
          end();
        },
        (error: unknown) => {
          if (!over) controller.error(error);
          end();
        },
      );
    },
    cancel: end,
  });
}
