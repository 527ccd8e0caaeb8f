// @ts-check
// The security headers of every answer, set by server.mjs before Next.js sees the request.
// Here rather than in next.config.mjs `headers()` and a proxy.ts: with either of those, Next
// matches and compiles them on every request, /api/ included, which cost a bare Next app 6–7%
// of its throughput (docs/benchmark.md); here they cost a few setHeader calls.
import { randomBytes } from "node:crypto";
import { pathOf } from "./request-context.mjs";

/** The Content-Security-Policy of every API answer: JSON loads nothing. */
const API_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * A page's policy: scripts and styles only with this request's nonce. The development server
 * evaluates code for fast refresh; the production build never does.
 * @param {string} nonce @param {boolean} dev
 */
export function pagePolicy(nonce, dev) {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Answers that are JSON. */
const API_PREFIXES = ["/api/", "/.well-known/"];

/**
 * The build's files (a folder) and Next's image optimizer (one path: anything longer, as
 * `/_next/imagefoo`, is Next's HTML not-found page); they carry no markup and need no policy.
 * @param {string} path
 */
const isFile = (path) => path.startsWith("/_next/static/") || path === "/_next/image";

/**
 * Next routes by the normalized path (`/_next/static/%2e%2e/%2e%2e/signin` is the sign-in page),
 * so a path with a dot segment or an escape may be a page whatever its prefix: it gets a page's
 * policy. Browsers remove dot segments before sending; only a hand-made request has them.
 */
const MAYBE_ELSEWHERE = /%|\/\./;

/**
 * Sets the headers every answer carries: no framing (clickjacking of Approve), no referrer (a
 * page's URL carries the init id), no sniffing, HSTS when the service is reached over https, and
 * the Content-Security-Policy of the path's kind. A page gets a fresh nonce, put in the request's
 * policy header too: Next.js reads it there and puts it on its own scripts.
 * @param {import("node:http").IncomingMessage} request
 * @param {import("node:http").ServerResponse} response
 * @param {{ httpsOnly: boolean, dev: boolean }} options
 */
export function setSecurityHeaders(request, response, { httpsOnly, dev }) {
  response.setHeader("X-Frame-Options", "DENY");
  response.setHeader("Referrer-Policy", "no-referrer");
  response.setHeader("X-Content-Type-Options", "nosniff");
  if (httpsOnly) response.setHeader("Strict-Transport-Security", "max-age=63072000; includeSubDomains");
  // Next takes a page's nonce from the request's policy: only ours may be there.
  delete request.headers["content-security-policy"];
  delete request.headers["content-security-policy-report-only"];
  const url = request.url ?? "";
  if (API_PREFIXES.some((prefix) => url.startsWith(prefix))) {
    response.setHeader("Content-Security-Policy", API_POLICY);
  } else if (!isFile(pathOf(url)) || MAYBE_ELSEWHERE.test(pathOf(url))) {
    const policy = pagePolicy(randomBytes(16).toString("base64"), dev);
    request.headers["content-security-policy"] = policy;
    response.setHeader("Content-Security-Policy", policy);
  }
}
