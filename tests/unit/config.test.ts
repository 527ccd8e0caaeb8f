import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "@/lib/config";

describe("parseConfig", () => {
  it("has documented defaults", () => {
    expect(parseConfig({})).toEqual({
      appUrl: "http://localhost:3000",
      databaseUrl: "file:./data/initlink.db",
      port: 3000,
      initIntervalMs: 5000,
      initLifetimeMs: 900_000,
      trustProxyHops: 0,
      sqliteSynchronous: "FULL",
      initCodeCheck: "confirm",
      sessionLifetimeMs: 30 * 86_400_000,
      accessTokenLifetimeMs: 90 * 86_400_000,
    });
  });

  it("normalises APP_URL to its origin", () => {
    expect(parseConfig({ APP_URL: "https://Initlink.Example/" }).appUrl).toBe("https://initlink.example");
  });

  it.each([
    [{ APP_URL: "initlink.example" }, "APP_URL must be an absolute URL"],
    [{ APP_URL: "ftp://initlink.example" }, "APP_URL must use http or https"],
    [{ APP_URL: "https://initlink.example/app" }, "APP_URL must be an origin only"],
    [{ PORT: "70000" }, "PORT must be a whole number from 1 to 65535"],
    [{ INIT_INTERVAL_MS: "fast" }, "INIT_INTERVAL_MS must be a whole number"],
    [{ INIT_LIFETIME_SECONDS: "1.5" }, "INIT_LIFETIME_SECONDS must be a whole number"],
    [{ INIT_CODE_CHECK: "none" }, "INIT_CODE_CHECK must be confirm or enter"],
    [{ SQLITE_SYNCHRONOUS: "OFF" }, "SQLITE_SYNCHRONOUS must be FULL or NORMAL"],
    [{ DATABASE_URL: "mysql://x" }, "DATABASE_URL must be a file: URL"],
  ])("rejects %o with a clear message", (env, message) => {
    expect(() => parseConfig(env)).toThrow(ConfigError);
    expect(() => parseConfig(env)).toThrow(message);
  });
});
