import type { Config } from "../config";
import { addressSubject } from "../limits/rate-limit";
import { WAITING_SHARE_PER_ADDRESS } from "../limits/rules";
import { processWide } from "../process-wide";
import { logger } from "../../server/logger.mjs";

// The requests this process holds open while they wait: status requests with `Prefer: wait`
// and event streams. Both are parked at the production server's edge (server/parking.mjs), about
// 12 and 19 KiB of heap each; held by the route (without the edge), a request keeps Next.js's
// state of it for as long as it is open, 76 KiB and more. Unbounded, 6,000 held requests ran a
// worker out of its 384 MiB heap, and it crashed with every request on it. So a process holds at
// most `waitingPerProcess`, of which at most `streamsPerProcess` streams (a stream keeps more
// than a request: server/config.mjs keeps the fullest room within the heap); past that, a status request
// is answered at once as a plain poll and an event stream is refused (503), and the clients
// poll, as they do when a server does not hold requests at all.
//
// One address (IPv6: its /64) holds at most a tenth of the room (WAITING_SHARE_PER_ADDRESS),
// however large: sixteen streams per init, each open until the init expired, let about 192 inits
// from one address fill a process's room, and then every other client was refused.

const FULL_WARNING_INTERVAL_MS = 60_000;

type Room = { held: number; streams: number; byAddress: Map<string, number>; warnedAt: number };

// One count per process: the status route and the event stream are separate bundles.
const room = () => processWide("waiting-room", (): Room => ({ held: 0, streams: 0, byAddress: new Map(), warnedAt: -Infinity }));

/** How many places one address may hold in a process's room of `waitingPerProcess`. */
export const placesPerAddress = (waitingPerProcess: number) => Math.max(1, Math.floor(waitingPerProcess * WAITING_SHARE_PER_ADDRESS));

/** A place (leave() once the wait is over; calls after the first do nothing), or why there is none. */
export type Place = { leave: () => void } | { refused: "full" | "address_share" };

/** A place for one request that waits (a status request, or an event stream), from `address` (the client's, null if unknown). */
export function enterWaitingRoom(cfg: Config, address: string | null, kind: "wait" | "stream"): Place {
  const state = room();
  const subject = addressSubject(address);
  const holding = state.byAddress.get(subject) ?? 0;
  if (holding >= placesPerAddress(cfg.waitingPerProcess)) return { refused: "address_share" };
  if (state.held >= cfg.waitingPerProcess || (kind === "stream" && state.streams >= cfg.streamsPerProcess)) {
    const now = Date.now();
    if (now - state.warnedAt >= FULL_WARNING_INTERVAL_MS) {
      state.warnedAt = now;
      logger().warn({ waiting: state.held, limit: cfg.waitingPerProcess }, "waiting room full: further waits are answered at once (WAITING_PER_PROCESS)");
    }
    return { refused: "full" };
  }
  state.held += 1;
  if (kind === "stream") state.streams += 1;
  state.byAddress.set(subject, holding + 1);
  let left = false;
  const leave = () => {
    if (left) return;
    left = true;
    state.held -= 1;
    if (kind === "stream") state.streams -= 1;
    const remaining = (state.byAddress.get(subject) ?? 1) - 1;
    if (remaining === 0) state.byAddress.delete(subject);
    else state.byAddress.set(subject, remaining);
  };
  return { leave };
}
