// @ts-check
// A request path with a percent-escape that does not decode as UTF-8 (`%E0%A4%A`, `%zz`, an
// escaped lone surrogate) is refused here, before Next.js sees it: Next's own path decoding
// throws on it and answers a plain-text 500, which broke the promise that
// every /api/ answer is JSON and let anyone inflate the 5xx metrics.
import { edgeErrorBody } from "./edge-errors.mjs";
import { pathOf } from "./request-context.mjs";

/** The message of the 400 `malformed_path` (lib/errors.ts takes it as its example). */
export const MALFORMED_PATH_MESSAGE = "The request path has a percent-escape that is not valid UTF-8.";

/** Paths that answer JSON (as server/security-headers.mjs sorts them). */
const JSON_PREFIXES = ["/api/", "/.well-known/"];

// Plain markup: no script or style, so the page's Content-Security-Policy holds as it is; the
// browser's own light colours, which pass the contrast audit (its dark link colour does not).
const MALFORMED_PATH_PAGE = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Bad request · initlink</title></head>
<body><main><h1>Bad request</h1><p>This address is broken: it has a % that does not start a valid escape. If a terminal sent you here, check that you opened the whole link.</p><p><a href="/">Go to the home page</a></p></main></body></html>
`;

/** Whether a request target's path (its query aside) has a percent-escape that does not decode. @param {string} target */
export function hasMalformedEscape(target) {
  const path = pathOf(target);
  // The common case costs one scan: no escape, nothing to decode.
  if (!path.includes("%")) return false;
  try {
    decodeURIComponent(path);
    return false;
  } catch {
    return true;
  }
}

/**
 * True when the request's path has a malformed escape: answered here with a 400, JSON under
 * /api/ and /.well-known/, a page elsewhere, and the connection closed (a body is never read).
 * @param {import("node:http").IncomingMessage} request
 * @param {import("node:http").ServerResponse} response
 * @param {string} route the request's route pattern, for the answer's shape (server/edge-errors.mjs)
 */
export function refuseMalformedPath(request, response, route) {
  const url = request.url ?? "";
  if (!hasMalformedEscape(url)) return false;
  const json = JSON_PREFIXES.some((prefix) => url.startsWith(prefix));
  response.writeHead(400, {
    "Content-Type": json ? "application/json" : "text/html; charset=utf-8",
    "Cache-Control": "no-store",
    Connection: "close",
  });
  response.end(json ? edgeErrorBody(route, "malformed_path", MALFORMED_PATH_MESSAGE) : MALFORMED_PATH_PAGE);
  return true;
}
