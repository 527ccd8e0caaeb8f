// @ts-check
// Parked waits: a status request with `Prefer: wait` costs, while it waits, its socket and a few
// small objects here, not Next.js's state of the request (76 KiB each when the route handler
// itself held it). The edge (server.mjs) sends such a request through Next.js as usual, with an
// offer to park it; the route (lib/api/route.ts) answers it as a poll, and when the answer would
// be held it registers a parking (what to wait on, and how to let go) and asks the edge to park
// instead. The edge keeps the socket and, when the init changes or the wait ends, sends the
// same request through Next.js again, marked as resumed: the route answers it as the end of a
// held poll, or parks it again (a notice that changed nothing). So every rule of the answer
// (the secret, the poll clock, the pickup, slow_down) stays in the route.
//
// The mark is a header whose value starts with a random token of this process: the edge
// removes the header from every request it receives, and the route trusts it only with the
// token, so neither a client nor a server without this edge (`next start`) can forge it.
import { randomBytes, timingSafeEqual } from "node:crypto";
import { ServerResponse } from "node:http";
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
 * What the route leaves with the edge for a parked request: when to wake it, and what to let go
 * of once it is answered or its client left.
 * @typedef {{ until: number, seconds: number, next: (signal: AbortSignal) => Promise<WaitEnd>, release: () => void }} Parking
 */

const token = () => processWide("parking-token", () => randomBytes(18).toString("base64url"));
const parkings = () => processWide("parkings", () => /** @type {Map<number, Parking>} */ (new Map()));

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

/** How many requests this process holds parked. */
export const parkedCount = () => parkings().size;

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

/**
 * The edge's part: serves a request that may wait (`handle`: Next.js's request handler) by
 * passes through Next.js, parking it between them.
 * @param {(request: import("node:http").IncomingMessage, response: ServerResponse) => Promise<unknown>} handle
 */
export function parkingEdge(handle) {
  let lastId = 0;

  /**
   * One pass through Next.js: true if the route parked the request, else its answer is written.
   * @param {import("node:http").IncomingMessage} request @param {ServerResponse} response @param {number} id @param {ResumingEnd | null} end
   */
  async function pass(request, response, id, end) {
    const url = request.url;
    const ownSymbols = new Set(Object.getOwnPropertySymbols(request));
    request.headers[PARKING_HEADER] = parkingHeader(id, end);
    /** @type {() => void} */
    let done = () => undefined;
    const ended = new Promise((resolve) => (done = () => resolve(undefined)));
    const captured = new CapturedResponse(request, done);
    await Promise.all([handle(request, captured), ended]);
    // What Next.js kept on the request object (its request meta) goes with the pass.
    const store = /** @type {Record<symbol, unknown>} */ (/** @type {unknown} */ (request));
    for (const symbol of Object.getOwnPropertySymbols(request)) if (!ownSymbols.has(symbol)) delete store[symbol];
    request.url = url;
    // Next.js hands a response header over as a list of values.
    if ([captured.getHeader(PARK_ANSWER_HEADER)].flat().includes("park") && parkingOf(id) !== undefined) return true;
    for (const [name, value] of Object.entries(captured.getHeaders())) if (value !== undefined && name !== PARK_ANSWER_HEADER) response.setHeader(name, value);
    response.statusCode = captured.statusCode;
    response.statusMessage = captured.statusMessage;
    response.end(Buffer.concat(captured.chunks));
    return false;
  }

  /** @param {import("node:http").IncomingMessage} request @param {ServerResponse} response */
  return async function serveWaiting(request, response) {
    const id = ++lastId;
    try {
      if (!(await pass(request, response, id, null))) return;
      const parking = /** @type {Parking} */ (parkingOf(id));
      const left = new AbortController();
      response.once("close", () => left.abort());
      for (;;) {
        const end = await parking.next(left.signal);
        if (end === "aborted" || !(await pass(request, response, id, end))) return;
      }
    } finally {
      releaseParking(id);
    }
  };
}
