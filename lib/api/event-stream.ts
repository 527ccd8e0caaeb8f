import { pumpFrames, retryFrame, stepFrames, type StreamStep } from "../../server/event-stream.mjs";
import type { WaitEnd } from "../init/init-events";

// A stream held by the route handler itself: under `next dev`, in-process tests, and any server
// without the production edge, which parks streams instead (server/parking.mjs). The framing,
// the heartbeats and the stream's lifetime are server/event-stream.mjs's, for both.

export { HEARTBEAT_MS, STREAM_LIFETIME_MS } from "../../server/event-stream.mjs";

/**
 * What a stream follows, one step at a time, so that the edge can park it between steps: how
 * soon a dropped client should come back, the step due now (`step(null)` first, then after each
 * wait with how the wait ended), the wait for the next step (until a change may have come, or
 * `signal` aborts), and close() to let go of it all.
 */
export type EventSource = {
  retryMs: number;
  step: (end: WaitEnd | null) => Promise<StreamStep>;
  wait: (signal: AbortSignal) => Promise<WaitEnd>;
  close: () => void;
};

const encoder = new TextEncoder();

/**
 * The source's events as a stream; `ended` runs once when it ends, whether it finished or the
 * client went (`signal`, the request's, aborts; or the stream is cancelled).
 */
export function eventStream(source: EventSource, ended: () => void, signal: AbortSignal): ReadableStream<Uint8Array> {
  const left = new AbortController();
  signal.addEventListener("abort", () => left.abort(), { once: true });
  let over = false;
  const end = () => {
    if (over) return;
    over = true;
    left.abort();
    source.close();
    ended();
  };
  let waited = false;
  const next = async () => {
    const step = await source.step(waited ? await source.wait(left.signal) : null);
    waited = true;
    return { frames: stepFrames(step), more: step.more };
  };

  return new ReadableStream<Uint8Array>({
    start(controller) {
      const write = (frames: string) => controller.enqueue(encoder.encode(frames));
      write(retryFrame(source.retryMs));
      pumpFrames(write, next, () => over).then(
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
