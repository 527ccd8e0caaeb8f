import { describe, expect, it } from "vitest";
import { routeMatcher, UNMATCHED_ROUTE } from "@/server/route-pattern.mjs";

// The metrics label a request by its route's pattern, never by its path: ids would make a
// series per init. The manifest below has the shape of .next/routes-manifest.json.
const routeOf = routeMatcher({
  staticRoutes: [{ page: "/", regex: "^/(?:/)?$" }, { page: "/api/init", regex: "^/api/init(?:/)?$" }, { page: "/api/live", regex: "^/api/live(?:/)?$" }],
  dynamicRoutes: [
    { page: "/api/init/[id]", regex: "^/api/init/([^/]+?)(?:/)?$" },
    { page: "/api/init/[id]/events", regex: "^/api/init/([^/]+?)/events(?:/)?$" },
    { page: "/api/projects/[projectId]/link/[iv]", regex: "^/api/projects/([^/]+?)/link/([^/]+?)(?:/)?$" },
    { page: "/init/[id]", regex: "^/init/([^/]+?)(?:/)?$" },
    { page: "/api/[...path]", regex: "^/api/(.+?)(?:/)?$" },
  ],
});

describe("routeMatcher", () => {
  it.each([
    ["/", "/"],
    ["/api/init", "/api/init"],
    ["/api/init/", "/api/init"],
    ["/api/init?x=1", "/api/init"],
    ["/api/init/f0hzLD1VaTUHWk7oIoQhpg", "/api/init/[id]"],
    ["/api/init/f0hzLD1VaTUHWk7oIoQhpg/events", "/api/init/[id]/events"],
    ["/api/projects/5e8mch_HFidY_p_xBhlFRQ/link/2ab29f669a3ed8bbd4a8a855d22c054b", "/api/projects/[projectId]/link/[iv]"],
    ["/init/f0hzLD1VaTUHWk7oIoQhpg?error=code_mismatch", "/init/[id]"],
    ["/api/no/such/thing", "/api/[...path]"],
    ["/.well-known/jwks.json", "/.well-known/jwks.json"],
    ["/_next/static/chunks/abc123.js", "/_next/static"],
    ["/no-such-page", UNMATCHED_ROUTE],
  ])("labels %s as %s", (target, pattern) => {
    expect(routeOf(target)).toBe(pattern);
  });
});
