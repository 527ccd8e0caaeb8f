import { existsSync } from "node:fs";
import { defineConfig, devices } from "@playwright/test";

// The end-to-end suite drives Chromium against the production build (`npm run test:e2e` builds
// it first). Two servers on scratch databases: one with the default timings, one with a short
// lifetime and interval for expiry and live updates.
export const MAIN_URL = "http://127.0.0.1:3100";
export const SHORT_URL = "http://127.0.0.1:3101";

// Debian's Chromium where it is installed (CI, these machines); Playwright's own elsewhere.
const executablePath = process.env.CHROMIUM_PATH ?? (existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined);

const server = (url: string, database: string, env: Record<string, string>) => ({
  command: `rm -f ${database} ${database}-wal ${database}-shm && node scripts/start.mjs`,
  url: `${url}/api/live`,
  reuseExistingServer: false,
  timeout: 180_000,
  stdout: "pipe" as const,
  env: {
    PORT: new URL(url).port,
    HOSTNAME: "127.0.0.1",
    APP_URL: url,
    DATABASE_URL: `file:${database}`,
    // A fixed test key (32 bytes of 0x2a), so the suite never writes a development key file.
    MASTER_KEY: "KioqKioqKioqKioqKioqKioqKioqKioqKioqKioqKio=",
    NEXT_TELEMETRY_DISABLED: "1",
    ...env,
  },
});

export default defineConfig({
  testDir: "tests/e2e",
  forbidOnly: true,
  retries: 0,
  workers: 2,
  timeout: 60_000,
  reporter: [["list"]],
  use: {
    ...devices["Desktop Chrome"],
    baseURL: MAIN_URL,
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath,
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    },
  },
  webServer: [
    server(MAIN_URL, "./.cache/e2e/main.db", {}),
    server(SHORT_URL, "./.cache/e2e/short.db", { INIT_LIFETIME_SECONDS: "10", INIT_INTERVAL_MS: "500" }),
  ],
});
