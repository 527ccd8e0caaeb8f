// @ts-check
// The JSON error answers the edge (server.mjs) gives before any route runs (a malformed path, a
// body over the limit), in the shape the route at that path would give them
// (lib/api/response.ts): an OAuth endpoint's body of RFC 6749 §5.2, Create Project Link's
// `success: false` (SPEC §4.3), everywhere else `{error, code}`. The edge cannot read the
// operations' declarations (nothing in server/ imports from lib/), so they are listed here and
// tests/unit/server/edge-errors.test.ts holds the lists to the declarations.

/** Route patterns, as Next.js names them, whose operations answer in OAuth's dialect. */
export const OAUTH_ROUTES = ["/api/oauth/device_authorization", "/api/oauth/token", "/api/oauth/revoke", "/api/oauth/introspect"];

/** Route patterns whose error answers carry more fields, and those fields. @type {Record<string, Record<string, boolean>>} */
export const ERROR_ENVELOPES = { "/api/projects/[projectId]/link/[iv]": { success: false } };

/**
 * The body of error `code` with `message`, as the route `route` (a pattern) would write it.
 * @param {string} route @param {"malformed_path" | "payload_too_large"} code @param {string} message
 */
export function edgeErrorBody(route, code, message) {
  if (OAUTH_ROUTES.includes(route)) return JSON.stringify({ error: "invalid_request", error_description: message });
  return JSON.stringify({ ...ERROR_ENVELOPES[route], error: message, code });
}
