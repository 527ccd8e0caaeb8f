// @ts-check
// The largest request body the service reads anywhere (the API's JSON bodies; forms have a
// smaller limit, lib/api/body.ts). server.mjs enforces it before Next sees a body, so that no
// part of Next reads a huge body to its end whatever the route answered (with a proxy.ts, Next
// copied every page's and form's body up to 10 MB and logged a plain-text "Request body
// exceeded 10MB" line).

import { edgeErrorBody } from "./edge-errors.mjs";

export const MAX_REQUEST_BODY_BYTES = 16 * 1024;

const LINGER_AFTER_REFUSAL_MS = 2000;

const PAYLOAD_TOO_LARGE_MESSAGE = `The request body must be at most ${MAX_REQUEST_BODY_BYTES} bytes.`;

/**
 * True when the request declares a body over the limit (Content-Length): answered here with a
 * 413 and the connection closed, never handed to Next. A body without a length (chunked) is
 * handed on only up to the chunk that passes the limit: the route sees it is over its limit and
 * refuses it (lib/api/body.ts); the rest is dropped as it arrives, so nobody buffers it, and
 * once the answer is out the connection is closed.
 * @param {import("node:http").IncomingMessage} request
 * @param {import("node:http").ServerResponse} response
 * @param {string} route the request's route pattern, for the answer's shape (server/edge-errors.mjs)
 */
export function refuseOversizedBody(request, response, route) {
  const declared = Number(request.headers["content-length"] ?? 0);
  if (declared > MAX_REQUEST_BODY_BYTES) {
    response.writeHead(413, { "Content-Type": "application/json", "Cache-Control": "no-store", Connection: "close" });
    response.end(edgeErrorBody(route, "payload_too_large", PAYLOAD_TOO_LARGE_MESSAGE));
    return true;
  }
  if (request.headers["transfer-encoding"] === undefined) return false;
  // Node's HTTP parser hands the body to the request through push(), chunk by chunk.
  const push = request.push.bind(request);
  let received = 0;
  let cut = false;
  // Past the limit the body's end is still passed on (ending it early would make Node destroy
  // the socket, as for an aborted request), its bytes are not.
  request.push = (chunk, encoding) => {
    if (chunk === null) return push(null);
    if (cut) return true;
    received += chunk.length;
    cut = received > MAX_REQUEST_BODY_BYTES;
    return push(chunk, encoding);
  };
  // Taken now: by "finish" the response has let go of the socket.
  const { socket } = request;
  response.on("finish", () => {
    if (!cut) return;
    // Half-closed first, so the client can read the 413 before a reset could discard it; then
    // gone, so a client that keeps streaming is not read (and dropped) until requestTimeout.
    socket.end();
    setTimeout(() => socket.destroy(), LINGER_AFTER_REFUSAL_MS).unref();
  });
  return false;
}
