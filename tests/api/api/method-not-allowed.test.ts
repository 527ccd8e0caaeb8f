import { describe, expect, it } from "vitest";
import * as noSuchRoute from "@/app/api/[...path]/route";
import * as health from "@/app/api/health/route";
import * as initEvents from "@/app/api/init/[id]/events/route";
import * as initStatus from "@/app/api/init/[id]/route";
import * as createInit from "@/app/api/init/route";
import * as live from "@/app/api/live/route";
import * as metrics from "@/app/api/metrics/route";
import * as createLink from "@/app/api/projects/[projectId]/link/[iv]/route";
import * as linkedProject from "@/app/api/projects/[projectId]/route";
import * as jwks from "@/app/api/well-known/jwks/route";
import { databaseSnapshot } from "../../helpers/api";

// Every /api answer is JSON in the documented error shape. A method a route
// does not serve is a 405 with Allow (RFC 9110 §15.5.6), not Next's empty one; a path no route
// serves is a JSON 404, not the pages' HTML. Next picks the module and the exported handler by
// path and method (tests/e2e/hardening.spec.ts checks that against the production build); here
// each handler is called as Next calls it.

type Handler = (request: Request, context: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;
type RouteModule = Partial<Record<"GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS", Handler>>;

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"] as const;

const ROUTES: [path: string, module: RouteModule, allow: string, envelope: Record<string, unknown>][] = [
  ["/api/init", createInit, "POST, OPTIONS", {}],
  ["/api/init/f0hzLD1VaTUHWk7oIoQhpg", initStatus, "GET, HEAD, OPTIONS", {}],
  ["/api/init/f0hzLD1VaTUHWk7oIoQhpg/events", initEvents, "GET, HEAD, OPTIONS", {}],
  ["/api/projects/f0hzLD1VaTUHWk7oIoQhpg/link/AAAAAAAAAAAAAAAAAAAAAA", createLink, "POST, OPTIONS", { success: false }],
  ["/api/projects/f0hzLD1VaTUHWk7oIoQhpg", linkedProject, "GET, HEAD, OPTIONS", {}],
  ["/api/well-known/jwks", jwks, "GET, HEAD, OPTIONS", {}],
  ["/api/health", health, "GET, HEAD, OPTIONS", {}],
  ["/api/live", live, "GET, HEAD, OPTIONS", {}],
  ["/api/metrics", metrics, "GET, HEAD, OPTIONS", {}],
];

const call = (handler: Handler | undefined, method: string, path: string, params: Record<string, string | string[]> = {}) => {
  if (handler === undefined) throw new Error(`no ${method} handler for ${path}`);
  const body = method === "GET" || method === "HEAD" ? null : '{"sender":"x"}';
  return handler(new Request(`http://localhost:3000${path}`, { method, body, headers: { "content-type": "application/json" } }), { params: Promise.resolve(params) });
};

describe("a method a route does not serve", () => {
  const cases = ROUTES.flatMap(([path, module, allow, envelope]) =>
    METHODS.filter((method) => !allow.split(", ").includes(method)).map((method) => [method, path, module, allow, envelope] as const),
  );
  it.each(cases)("%s %s: 405 with Allow and the JSON error shape, nothing written", async (method, path, module, allow, envelope) => {
    const before = await databaseSnapshot();
    const response = await call(module[method], method, path);
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe(allow);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({ ...envelope, error: expect.any(String), code: "method_not_allowed" });
    expect(await databaseSnapshot()).toEqual(before);
  });

  it.each(ROUTES)("OPTIONS %s names the methods served", async (path, module, allow) => {
    const response = await call(module.OPTIONS, "OPTIONS", path);
    expect(response.status).toBe(204);
    expect(response.headers.get("allow")).toBe(allow);
  });
});

describe("a path no API route serves", () => {
  it.each([...METHODS, "OPTIONS" as const].flatMap((method) => [
    [method, "/api/nothing", ["nothing"]],
    [method, "/api/projects/../link/AAAAAAAAAAAAAAAAAAAAAA", ["projects", "..", "link", "AAAAAAAAAAAAAAAAAAAAAA"]],
  ] as const))("%s %s: a JSON 404 not_found", async (method, path, segments) => {
    const response = await call(noSuchRoute[method], method, path, { path: [...segments] });
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ error: expect.any(String), code: "not_found" });
  });
});
