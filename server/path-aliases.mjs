// @ts-check
// Public addresses served by a route under another path: the App Router does not route
// dot-folders. server.mjs maps them before Next.js sees the request; as a rewrite in
// next.config.mjs, Next matched it against every request, /api/ included, at 3% of
// `GET /api/live`'s throughput (docs/benchmark.md).
import { pathOf } from "./request-context.mjs";

/** Each public path, and the path of the route that serves it. */
const ALIASES = new Map([
  ["/.well-known/jwks.json", "/api/well-known/jwks"],
  ["/.well-known/oauth-authorization-server", "/api/well-known/oauth-authorization-server"],
  ["/.well-known/oauth-protected-resource", "/api/well-known/oauth-protected-resource"],
]);

/** The public paths that are aliases (the metrics label a request by the path it was sent to). */
export const ALIAS_PATHS = [...ALIASES.keys()];

/**
 * The request target with an alias's path replaced by its route's path, the query kept; or
 * undefined when the path is no alias.
 * @param {string} target
 */
export function routeTargetOfAlias(target) {
  const path = pathOf(target);
  const routePath = ALIASES.get(path);
  return routePath === undefined ? undefined : routePath + target.slice(path.length);
}
