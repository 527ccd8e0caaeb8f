import { defineConfig } from "@playwright/test";
import { browserOptions, MULTI_PORTS, scratchDatabase, server } from "./playwright.config";

// Two production servers on one PostgreSQL database behind a load balancer: the public origin
// (APP_URL) is the balancer's, which the specs run and point at one instance or the other.
// Needs TEST_POSTGRES_URL; `npm run test:multi` runs it after the build.
export const INSTANCE_A = `http://127.0.0.1:${MULTI_PORTS.a}`;
export const INSTANCE_B = `http://127.0.0.1:${MULTI_PORTS.b}`;
export const BALANCER = `http://127.0.0.1:${MULTI_PORTS.balancer}`;
export const SHARED_CREATE_INIT_LIMIT = 6;

if (!process.env.TEST_POSTGRES_URL) {
  throw new Error("The multi-instance suite needs PostgreSQL: set TEST_POSTGRES_URL (see docs/testing.md).");
}

const shared = scratchDatabase("shared");
// The webhook spec's receiver listens on loopback.
const env = { CREATE_INIT_PER_MINUTE: String(SHARED_CREATE_INIT_LIMIT), OUTBOUND_ALLOW_PRIVATE: "true" };

export default defineConfig({
  testDir: "tests/multi",
  forbidOnly: true,
  retries: 0,
  workers: 1,
  timeout: 120_000,
  reporter: [["list"], ["./tests/e2e/server-logs.ts"]],
  use: { ...browserOptions, baseURL: BALANCER },
  // Started one after the other: the first empties and migrates the database, the second joins it.
  webServer: [server(INSTANCE_A, shared, env, { appUrl: BALANCER }), server(INSTANCE_B, shared, env, { reset: false, appUrl: BALANCER })],
});
