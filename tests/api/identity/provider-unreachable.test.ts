import { Writable } from "node:stream";
import { describe, expect, it, vi } from "vitest";
import { createLogger } from "@/server/logger.mjs";
import { databaseFingerprint } from "../../helpers/hostile";
import { dispatch } from "../../helpers/in-process";
import { SITE } from "../../helpers/forms";

// The identity provider out of reach from the start: its metadata cannot be read (nothing
// listens on port 1), so no flow starts. The provider down at the callback, after its metadata
// was read: tests/api/identity/oidc.test.ts.
vi.hoisted(() => {
  Object.assign(process.env, { OIDC_ISSUER: "http://127.0.0.1:1", OIDC_CLIENT_ID: "initlink", OIDC_CLIENT_SECRET: "secret" });
});

// The process's logger (server/process-wide.mjs), in place before anything logs: its lines, kept.
const logLines: Record<string, unknown>[] = [];
(globalThis as Record<symbol, unknown>)[Symbol.for("initlink.logger")] = createLogger(
  new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n")) if (line !== "") logLines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  }),
);

describe("an identity provider that cannot be reached", () => {
  it("sends the sign-in button back to the sign-in page with oidc_unavailable, keeping the way back, starting no flow and writing nothing", async () => {
    const before = await databaseFingerprint();
    const response = await dispatch("GET", "/auth/oidc/start?returnTo=%2Fdevice", { headers: { "sec-fetch-site": "same-origin" } });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`${SITE}/signin?returnTo=%2Fdevice&error=oidc_unavailable`);
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(await databaseFingerprint()).toEqual(before);
    // The operator's log says what failed: the error's type, message and stack, and the network's
    // reason (fetch refuses port 1 outright: "bad port").
    const discovery = logLines.find((line) => line.msg === "identity provider: discovery failed");
    expect(discovery).toMatchObject({ level: "warn", issuer: "http://127.0.0.1:1", err: { type: expect.any(String), message: expect.not.stringContaining("[object Object]") }, cause: "bad port" });
    expect(String((discovery!.err as { stack: string }).stack)).toContain("at ");
  });
});
