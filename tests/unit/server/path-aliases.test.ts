import { describe, expect, it } from "vitest";
import { routeTargetOfAlias } from "@/server/path-aliases.mjs";

// server.mjs hands an alias's request to the route that serves it; anything else goes on as sent.
describe("routeTargetOfAlias", () => {
  it.each([
    ["/.well-known/jwks.json", "/api/well-known/jwks"],
    ["/.well-known/jwks.json?kid=abc", "/api/well-known/jwks?kid=abc"],
    ["/.well-known/oauth-protected-resource", "/api/well-known/oauth-protected-resource"],
    ["/.well-known/jwks.json/", undefined],
    ["/.well-known/jwks.json.bak", undefined],
    ["/.well-known/other", undefined],
    ["/api/live", undefined],
    ["/api/well-known/jwks", undefined],
    ["/?/.well-known/jwks.json", undefined],
  ])("maps %s to %s", (target, routeTarget) => {
    expect(routeTargetOfAlias(target)).toBe(routeTarget);
  });
});
