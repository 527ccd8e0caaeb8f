import { describe, expect, it, vi } from "vitest";
import { databaseFingerprint } from "../../helpers/hostile";
import { dispatch } from "../../helpers/in-process";
import { SITE } from "../../helpers/forms";

// The identity provider out of reach from the start: its metadata cannot be read (nothing
// listens on port 1), so no flow starts. The provider down at the callback, after its metadata
// was read: tests/api/identity/oidc.test.ts.
vi.hoisted(() => {
  Object.assign(process.env, { OIDC_ISSUER: "http://127.0.0.1:1", OIDC_CLIENT_ID: "initlink", OIDC_CLIENT_SECRET: "secret" });
});

describe("an identity provider that cannot be reached", () => {
  it("sends the sign-in button back to the sign-in page with oidc_unavailable, keeping the way back, starting no flow and writing nothing", async () => {
    const before = await databaseFingerprint();
    const response = await dispatch("GET", "/auth/oidc/start?returnTo=%2Fdevice", { headers: { "sec-fetch-site": "same-origin" } });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`${SITE}/signin?returnTo=%2Fdevice&error=oidc_unavailable`);
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(await databaseFingerprint()).toEqual(before);
  });
});
