import type { Config } from "../config";
import { processWide } from "../process-wide";
import { logger } from "../../server/logger.mjs";

// The requests this process holds open while they wait: status requests with `Prefer: wait`
// and event streams. Each keeps its request's state for as long as it waits, about 64 KiB of
// heap, most of it Next.js's own (a request held in an empty route of a bare Next app keeps
// 56 KiB). Unbounded, 6,000 held requests ran a worker out of its 384 MiB heap, and it crashed
// with every request on it. So a process holds at most `waitingPerProcess`; past that, a status
// request is answered at once as a plain poll and an event stream is refused (503), and the
// clients poll, as they do when a server does not hold requests at all.

const FULL_WARNING_INTERVAL_MS = 60_000;

type Room = { held: number; warnedAt: number };

// One count per process: the status route and the event stream are separate bundles.
const room = () => processWide("waiting-room", (): Room => ({ held: 0, warnedAt: -Infinity }));

/**
 * A place for one request that waits, or null when the process holds as many as it may. Call
 * the function returned once the wait is over; calls after the first do nothing.
 */
export function enterWaitingRoom(cfg: Config): (() => void) | null {
  const state = room();
  if (state.held >= cfg.waitingPerProcess) {
    const now = Date.now();
    if (now - state.warnedAt >= FULL_WARNING_INTERVAL_MS) {
      state.warnedAt = now;
      logger().warn({ waiting: state.held, limit: cfg.waitingPerProcess }, "waiting room full: further waits are answered at once (WAITING_PER_PROCESS)");
    }
    return null;
  }
  state.held += 1;
  let left = false;
  return () => {
    if (left) return;
    left = true;
    state.held -= 1;
  };
}
