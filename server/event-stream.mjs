// @ts-check
// Server-Sent Events (the WHATWG HTML standard, §9.2), in one place for both holders of a stream:
// the route handler (lib/api/event-stream.ts, under `next dev` and in-process tests) and the
// production server's edge, which keeps a parked stream between passes through Next.js
// (server/parking.mjs). A source's events are framed as `id:` and `data:` lines, `retry:` first,
// with a comment line as a heartbeat whenever HEARTBEAT_MS pass without a frame, so that proxies
// keep the connection open.

export const HEARTBEAT_MS = 15_000;

/**
 * A stream ends after this however long its source goes on: the client (an EventSource) comes
 * back after `retry` with `Last-Event-ID` and misses nothing, and a stream left open by someone
 * who is not reading gives its place in the waiting room back instead of keeping it until the
 * init expires.
 */
export const STREAM_LIFETIME_MS = 5 * 60_000;

const HEARTBEAT_FRAME = ": heartbeat\n\n";

/** @typedef {{ id: string, data: unknown }} StreamEvent */

/**
 * One step of a stream's source: the event due now, if any, and whether more may follow (then the
 * source waits for its next step).
 * @typedef {{ event: StreamEvent | null, more: boolean }} StreamStep
 */

/** EventSource reconnects after `retry`: a dropped stream comes back no faster than a poll. @param {number} retryMs */
export const retryFrame = (retryMs) => `retry: ${retryMs}\n\n`;

/** A step's frame: its event, or nothing. @param {StreamStep} step */
export const stepFrames = (step) => (step.event === null ? "" : `id: ${step.event.id}\ndata: ${JSON.stringify(step.event.data)}\n\n`);

/**
 * Writes a stream's frames after its first ones: each step's (`next` resolves with its frames, and
 * whether more may follow), a heartbeat whenever HEARTBEAT_MS pass without a frame, until a step
 * says no more, STREAM_LIFETIME_MS pass, or `isOver()`. A step that fails fails the stream.
 * @param {(frames: string) => void} write
 * @param {() => Promise<{ frames: string, more: boolean }>} next
 * @param {() => boolean} isOver
 */
export async function pumpFrames(write, next, isOver) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let lifetimeTimer;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let heartbeatTimer;
  /** @type {Promise<"heartbeat">} */
  let heartbeat = new Promise(() => undefined);
  // Counted from the last frame written: a step without an event does not put the heartbeat off.
  const written = () => {
    clearTimeout(heartbeatTimer);
    heartbeat = new Promise((resolve) => (heartbeatTimer = setTimeout(resolve, HEARTBEAT_MS, "heartbeat")));
  };
  /** @type {Promise<"lifetime">} */
  const lifetime = new Promise((resolve) => (lifetimeTimer = setTimeout(resolve, STREAM_LIFETIME_MS, "lifetime")));
  const nextStep = () => {
    const step = next();
    // A step still under way when the stream ends is not awaited: its failure is no one's.
    step.catch(() => undefined);
    return step;
  };
  written();
  try {
    let step = nextStep();
    while (!isOver()) {
      const result = await Promise.race([step, heartbeat, lifetime]);
      if (isOver() || result === "lifetime") return;
      if (result === "heartbeat") {
        write(HEARTBEAT_FRAME);
        written();
        continue;
      }
      if (result.frames !== "") {
        write(result.frames);
        written();
      }
      if (!result.more) return;
      step = nextStep();
    }
  } finally {
    clearTimeout(heartbeatTimer);
    clearTimeout(lifetimeTimer);
  }
}
