// @ts-check
// Parked waits and streams: a status request with `Prefer: wait` costs, while it waits, its socket
// and a few small objects here, not Next.js's state of the request (76 KiB each when the route
// handler itself held it). The edge (server.mjs) sends such a request through Next.js as usual,
// with an offer to park it; the route (lib/api/route.ts) answers it as a poll, and when the answer
// would be held it registers a parking (what to wait on, and how to let go) and asks the edge to
// park instead. The edge keeps the socket and, when the init changes or the wait ends, sends the
// same request through Next.js again, marked as resumed: the route answers it as the end of a
// held poll, or parks it again (a notice that changed nothing). So every rule of the answer
// (the secret, the poll clock, the pickup, slow_down) stays in the route.
//
// An event stream (`GET /api/init/{id}/events`) is parked the same way: the first pass validates
// it and takes its places as the route always does, and answers the stream's headers and first
// frames; the edge writes them, keeps the socket, writes the heartbeats and ends the stream at its
// lifetime (server/event-stream.mjs, shared with the route's own streams), and sends a pass
// whenever the init may have changed or its row is due to be read again: that pass's answer is
// the next frames (the status answer the route produces, as the event's data), and it says
// whether the stream goes on.
//
// The mark is a header whose value starts with a random token of this process: the edge
// removes the header from every request it receives, and the route trusts it only with the
// token, so neither a client nor a server without this edge (`next start`) can forge it.
import { randomBytes, timingSafeEqual } from "node:crypto";
import { ServerResponse } from "node:http";
import { pumpFrames } from "./event-stream.mjs";
import { processWide } from "./process-wide.mjs";

/** Request header, set by the edge only: `<token> <id>` (the offer), `<token> <id> <end>` (resumed). */
export const PARKING_HEADER = "x-initlink-parking";
/** Response header, set by the route only: park this request instead of answering it. */
export const PARK_ANSWER_HEADER = "x-initlink-park";

/** @typedef {"changed" | "deadline" | "aborted" | "stopping"} WaitEnd */
/** @typedef {Exclude<WaitEnd, "aborted">} ResumingEnd */
/** Why the edge sends a parked request through again. @type {readonly ResumingEnd[]} */
const RESUMING_ENDS = ["changed", "deadline", "stopping"];

/**
 * What the route leaves with the edge for a parked request: what wakes it (`next`), and what to
 * let go of once it is answered or its client left. A wait also keeps when it ends and the wait
 * asked for; a stream, its next step (the row read again, the event due if any).
 * @typedef {{ next: (signal: AbortSignal) => Promise<WaitEnd>, release: () => void }} ParkingBase
 * @typedef {ParkingBase & { kind: "wait", until: number, seconds: number }} WaitParking
 * @typedef {ParkingBase & { kind: "stream", step: (end: ResumingEnd) => Promise<import("./event-stream.mjs").StreamStep> }} StreamParking
 * @typedef {WaitParking | StreamParking} Parking
 */

const token = () => processWide("parking-token", () => randomBytes(18).toString("base64url"));
const parkings = () => processWide("parkings", () => /** @type {Map<number, Parking>} */ (new Map()));

/**
 * Passes of parked requests through Next.js at once, in this process. A burst of wakes (the
 * process stopping wakes every parked request) waits here, costing nothing, rather than in
 * Next.js and the database pool: on PostgreSQL, 8,000 woken at once waited past the pool's 5 s
 * and were answered 503 (docs/deploying.md). A few more than the pool's default 10
 * connections, so that the pool stays busy while passes come and go. A pass holds its place no
 * longer than a request takes: the database's waits end after 5 s.
 */
const RESUMED_PASSES_AT_ONCE = 16;

/** What a stopping process gives its requests under way (server.mjs). */
export const STOP_GRACE_MS = 5_000;
/** And each parked request, for its last pass (about half a millisecond of CPU here). */
const STOP_MS_PER_PARKED = 1;

/** How long a process that stops now gives itself: its requests under way, and a last pass of each parked one. */
export const stopDeadlineMs = () => STOP_GRACE_MS + parkings().size * STOP_MS_PER_PARKED;

/** The longest a process holding `waitingPerProcess` parked requests gives itself to stop (server/primary.mjs waits that long). @param {number} waitingPerProcess */
export const longestStopMs = (waitingPerProcess) => STOP_GRACE_MS + waitingPerProcess * STOP_MS_PER_PARKED;

/**
 * A count of free places for resumed passes; a place freed goes to the longest waiting, if any.
 * A waiter whose client left (`left`) stops waiting at once, with no place.
 * @param {number} places
 */
function passPlaces(places) {
  let free = places;
  /** @type {Set<() => void>} */
  const waiting = new Set();
  return {
    /** Resolves true with a place, false (and none) once `left` aborts. @param {AbortSignal} left @returns {Promise<boolean>} */
    take: (left) => {
      if (left.aborted) return Promise.resolve(false);
      if (free > 0) {
        free -= 1;
        return Promise.resolve(true);
      }
      return new Promise((resolve) => {
        const answer = () => {
          left.removeEventListener("abort", gone);
          resolve(true);
        };
        const gone = () => {
          waiting.delete(answer);
          resolve(false);
        };
        left.addEventListener("abort", gone, { once: true });
        waiting.add(answer);
      });
    },
    give: () => {
      const next = waiting.values().next();
      if (next.done) {
        free += 1;
        return;
      }
      waiting.delete(next.value);
      next.value();
    },
  };
}

/** @param {number} id @param {ResumingEnd | null} end */
const parkingHeader = (id, end) => (end === null ? `${token()} ${id}` : `${token()} ${id} ${end}`);

/**
 * The edge's mark on a request, if it really is this process's edge's: the parking's id, and why
 * it was resumed (null: the first pass, an offer to park).
 * @param {string | null | undefined} value
 * @returns {{ id: number, end: ResumingEnd | null } | null}
 */
export function readParkingHeader(value) {
  if (typeof value !== "string") return null;
  const [given, id, end, extra] = value.split(" ");
  if (extra !== undefined || !/^[1-9]\d{0,14}$/.test(id ?? "")) return null;
  const expected = Buffer.from(token());
  const actual = Buffer.from(given);
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return null;
  if (end === undefined) return { id: Number(id), end: null };
  const resumed = RESUMING_ENDS.find((known) => known === end);
  return resumed === undefined ? null : { id: Number(id), end: resumed };
}

/** The route parks request `id` (its first pass). @param {number} id @param {Parking} parking */
export const registerParking = (id, parking) => void parkings().set(id, parking);

/** The parking of request `id`, while it is parked. @param {number} id */
export const parkingOf = (id) => parkings().get(id);

/** Lets go of request `id`'s parking (its watch, its place in the waiting room). @param {number} id */
function releaseParking(id) {
  const parking = parkings().get(id);
  parkings().delete(id);
  parking?.release();
}

/**
 * A response Next.js writes into instead of the socket: its status, headers and body, kept
 * for the edge to write, or to drop when the route asks to park the request.
 */
class CapturedResponse extends ServerResponse {
  /** @type {Buffer[]} */
  chunks = [];
  /** @param {import("node:http").IncomingMessage} request @param {() => void} done */
  constructor(request, done) {
    super(request);
    this.done = done;
  }

  /** @param {number} statusCode @param {unknown[]} rest */
  writeHead(statusCode, ...rest) {
    this.statusCode = statusCode;
    const headers = rest.find((item) => typeof item === "object" && item !== null && !Array.isArray(item));
    if (typeof rest[0] === "string") this.statusMessage = rest[0];
    for (const [name, value] of Object.entries(/** @type {Record<string, string | number | string[]>} */ (headers ?? {}))) this.setHeader(name, value);
    return this;
  }

  flushHeaders() {}

  /** @param {unknown} chunk @param {unknown[]} rest */
  write(chunk, ...rest) {
    if (typeof chunk === "string" || chunk instanceof Uint8Array) this.chunks.push(Buffer.from(chunk));
    const callback = rest.find((item) => typeof item === "function");
    if (callback) process.nextTick(/** @type {() => void} */ (callback));
    return true;
  }

  /** @param {unknown[]} args */
  end(...args) {
    if (this.finished) return this;
    if (typeof args[0] === "string" || args[0] instanceof Uint8Array) this.write(args[0]);
    const callback = args.find((item) => typeof item === "function");
    this.finished = true;
    process.nextTick(() => {
      this.emit("finish");
      this.emit("close");
      if (callback) /** @type {() => void} */ (callback)();
      this.done();
    });
    return this;
  }

  destroy() {
    if (this.destroyed) return this;
    this.destroyed = true;
    process.nextTick(() => {
      this.emit("close");
      this.done();
    });
    return this;
  }
}

/** Writes a pass's whole answer and ends the response. @param {ServerResponse} response @param {CapturedResponse} captured */
function answer(response, captured) {
  writeHead(response, captured);
  response.end(Buffer.concat(captured.chunks));
}

/** Sets the pass's status and headers on the response (Next.js hands a response header over as a list of values). @param {ServerResponse} response @param {CapturedResponse} captured */
function writeHead(response, captured) {
  for (const [name, value] of Object.entries(captured.getHeaders())) if (value !== undefined && name !== PARK_ANSWER_HEADER) response.setHeader(name, value);
  response.statusCode = captured.statusCode;
  response.statusMessage = captured.statusMessage;
}

/**
 * The edge's part: serves a request that may wait or stream (`handle`: Next.js's request handler)
 * by passes through Next.js, parking it between them.
 * @param {(request: import("node:http").IncomingMessage, response: ServerResponse) => Promise<unknown>} handle
 */
export function parkingEdge(handle) {
  let lastId = 0;
  const places = passPlaces(RESUMED_PASSES_AT_ONCE);

  /**
   * One pass through Next.js: its answer, kept, and whether the route parked the request.
   * @param {import("node:http").IncomingMessage} request @param {number} id @param {ResumingEnd | null} end
   * @returns {Promise<{ captured: CapturedResponse, parked: boolean }>}
   */
  async function pass(request, id, end) {
    const url = request.url;
    const ownSymbols = new Set(Object.getOwnPropertySymbols(request));
    const ownListeners = new Map(request.eventNames().map((name) => [name, new Set(request.rawListeners(name))]));
    request.headers[PARKING_HEADER] = parkingHeader(id, end);
    /** @type {() => void} */
    let done = () => undefined;
    const ended = new Promise((resolve) => (done = () => resolve(undefined)));
    const captured = new CapturedResponse(request, done);
    await Promise.all([handle(request, captured), ended]);
    // What Next.js kept on the request object (its request meta) goes with the pass.
    const store = /** @type {Record<symbol, unknown>} */ (/** @type {unknown} */ (request));
    for (const symbol of Object.getOwnPropertySymbols(request)) if (!ownSymbols.has(symbol)) delete store[symbol];
    // So do the listeners it added to the request: its `error` listener holds the pass's response,
    // and through it Next.js's state of the request, for as long as the request is parked.
    for (const name of request.eventNames()) {
      const own = ownListeners.get(name);
      for (const listener of request.rawListeners(name)) if (!own?.has(listener)) request.removeListener(name, /** @type {(...args: unknown[]) => void} */ (listener));
    }
    request.url = url;
    return { captured, parked: [captured.getHeader(PARK_ANSWER_HEADER)].flat().includes("park") && parkingOf(id) !== undefined };
  }

  /**
   * The first pass of a request the edge offers to park: false when it was answered (written
   * whole); true when the route parked it, a stream's beginning then written and the socket kept.
   * Nothing of the pass outlives this function: Next.js's state of the request goes with it.
   * @param {import("node:http").IncomingMessage} request @param {ServerResponse} response @param {number} id @param {boolean} stream
   */
  async function begin(request, response, id, stream) {
    const { captured, parked } = await pass(request, id, null);
    if (!parked) answer(response, captured);
    else if (stream) {
      writeHead(response, captured);
      response.write(Buffer.concat(captured.chunks));
    }
    return parked;
  }

  /**
   * Serves one request with an offer to park it (a status wait, or an event stream: `stream`),
   * `keep` holding it once parked, and lets go of its parking however it ends.
   * @param {boolean} stream
   * @param {(request: import("node:http").IncomingMessage, response: ServerResponse, parking: Parking, id: number, left: AbortSignal) => Promise<void>} keep
   */
  const serve = (stream, keep) =>
    /** @param {import("node:http").IncomingMessage} request @param {ServerResponse} response */
    async (request, response) => {
      const id = ++lastId;
      // Listened to before the first pass: a client that leaves during it frees its place too.
      const left = new AbortController();
      response.once("close", () => left.abort());
      try {
        if (await begin(request, response, id, stream)) await keep(request, response, /** @type {Parking} */ (parkingOf(id)), id, left.signal);
      } finally {
        left.abort();
        releaseParking(id);
      }
    };

  /**
   * A pass of a parked request the edge resumes, once a place is free (RESUMED_PASSES_AT_ONCE);
   * null when its client left meanwhile.
   * @param {import("node:http").IncomingMessage} request @param {number} id @param {ResumingEnd} end @param {AbortSignal} left
   */
  async function resumedPass(request, id, end, left) {
    if (!(await places.take(left))) return null;
    try {
      // The client may have left, or the stream ended, while this pass waited for its place.
      return left.aborted || parkingOf(id) === undefined ? null : await pass(request, id, end);
    } finally {
      places.give();
    }
  }

  /** A parked wait: its answer is the first pass that does not park it again. */
  const serveWaiting = serve(false, async (request, response, parking, id, left) => {
    for (;;) {
      const end = await parking.next(left);
      if (end === "aborted") return;
      const resumed = await resumedPass(request, id, end, left);
      if (resumed === null) return;
      if (!resumed.parked) return answer(response, resumed.captured);
    }
  });

  /**
   * A parked stream, its beginning written: each pass's frames, and the heartbeats between,
   * until a pass ends it, its lifetime ends, or its client leaves. A pass answered otherwise than
   * 200 (a database too busy: 503) ends the stream, as the end of its lifetime does: the route has
   * logged why, and the client reconnects with Last-Event-ID. A pass that throws fails the stream.
   */
  const serveStream = serve(true, async (request, response, parking, id, left) => {
    const next = async () => {
      const end = await parking.next(left);
      if (end === "aborted") return { frames: "", more: false };
      const resumed = await resumedPass(request, id, end, left);
      if (resumed === null || resumed.captured.statusCode !== 200) return { frames: "", more: false };
      return { frames: Buffer.concat(resumed.captured.chunks).toString(), more: resumed.parked };
    };
    await pumpFrames((frames) => response.write(frames), next, () => left.aborted);
    response.end();
  });

  return { serveWaiting, serveStream };
}
