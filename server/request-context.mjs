// @ts-check
// What server.mjs and the app must agree on, in plain JavaScript so that both can import it.

/** server.mjs puts the TCP peer's address in this header, replacing anything a client sent. */
export const PEER_ADDRESS_HEADER = "x-initlink-peer";

/** The id of one request, set by server.mjs; the app's log lines of that request carry it. */
export const REQUEST_ID_HEADER = "x-request-id";

// An id a proxy or client sent: kept when it is one short token of the characters request ids
// are made of (UUIDs, ULIDs, base64, AWS trace ids), so that it cannot forge log structure.
const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:;+=@/-]{1,128}$/;

/**
 * The request's id: the incoming `X-Request-Id` if it is sane, else a fresh one. A repeated
 * header reaches Node joined with ", " and so gets a fresh id.
 * @param {string | string[] | undefined} incoming @param {() => string} fresh
 */
export function requestIdOf(incoming, fresh) {
  return typeof incoming === "string" && REQUEST_ID_PATTERN.test(incoming) ? incoming : fresh();
}

/** Whether the service is reached over https: secure cookies and HSTS follow from it. @param {string} appUrl */
export const isHttpsOrigin = (appUrl) => appUrl.trim().toLowerCase().startsWith("https:");

/** A request target's path: everything before its query. @param {string} target */
export function pathOf(target) {
  const query = target.indexOf("?");
  return query === -1 ? target : target.slice(0, query);
}

/**
 * A request's path as logged: without its query, and with a link's iv cut to its first 8
 * characters, since with LEGACY_LINK_APPROVAL whoever knows (project, iv) between approval and
 * claim gets the link. @param {string} url the request target or pathname
 */
export function loggedPath(url) {
  const path = pathOf(url);
  return path.includes("/link/") ? path.replace(/(\/link\/[^/]{8})[^/]+/, "$1…") : path;
}

/**
 * The process event server.mjs emits when it starts to stop (SIGTERM, SIGINT): requests held
 * waiting on an init (lib/init/init-events.ts) end then, answered with the status as it is,
 * instead of being cut when the process exits.
 */
export const STOPPING_EVENT = "initlink:stopping";
