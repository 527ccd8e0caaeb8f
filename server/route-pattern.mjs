// @ts-check
// The route a request path belongs to, as its pattern (`/api/init/[id]`), for the metrics'
// `route` label: one series per route, never one per id. The patterns are the ones Next.js
// routes by, read from the build's routes manifest (.next/routes-manifest.json).
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { ALIAS_PATHS } from "./path-aliases.mjs";
import { pathOf } from "./request-context.mjs";

/** Next's build output (scripts, styles): one label for all of it. */
const STATIC_ASSETS = "/_next/static";
/** A path no route serves (a page's 404), or any path when there is no manifest (the development server). */
export const UNMATCHED_ROUTE = "unmatched";

/**
 * @typedef {{ page: string, regex: string }} ManifestRoute
 * @typedef {{ staticRoutes?: ManifestRoute[], dynamicRoutes?: ManifestRoute[] }} RoutesManifest
 */

/**
 * A function from a request target (path, maybe with a query) to its route pattern. Static
 * routes and the aliases (/.well-known/jwks.json) first, then the dynamic routes in the
 * manifest's order (Next lists the most specific first, catch-alls last).
 * @param {RoutesManifest} manifest
 * @returns {(target: string) => string}
 */
export function routeMatcher(manifest) {
  const exact = new Set([...(manifest.staticRoutes ?? []).map((route) => route.page), ...ALIAS_PATHS]);
  const patterns = (manifest.dynamicRoutes ?? []).map((route) => ({ page: route.page, regex: new RegExp(route.regex) }));
  return (target) => {
    const pathname = pathOf(target);
    const trimmed = pathname.length > 1 && pathname.endsWith("/") ? pathname.slice(0, -1) : pathname;
    if (exact.has(trimmed)) return trimmed;
    if (pathname.startsWith(`${STATIC_ASSETS}/`)) return STATIC_ASSETS;
    return patterns.find((pattern) => pattern.regex.test(pathname))?.page ?? UNMATCHED_ROUTE;
  };
}

/** The matcher of the production build in `root`, or one that names every path unmatched. @param {string} root */
export function routeMatcherOfBuild(root) {
  const file = path.join(root, ".next", "routes-manifest.json");
  if (!existsSync(file)) return () => UNMATCHED_ROUTE;
  return routeMatcher(/** @type {RoutesManifest} */ (JSON.parse(readFileSync(file, "utf8"))));
}
