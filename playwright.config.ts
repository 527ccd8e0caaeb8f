import { existsSync } from "node:fs";
import { defineConfig, devices } from "@playwright/test";
import { serverLogFile } from "./tests/e2e/server-logs";

// The end-to-end suite drives Chromium against the production build (`npm run test:e2e` builds
// it first). Two servers on scratch databases: one with the default timings, one with a short
// lifetime and interval for expiry and live updates. With TEST_POSTGRES_URL (a PostgreSQL
// server's maintenance database) they run on PostgreSQL databases instead of SQLite files.
// E2E_PORT (default 3100) is the first of the ports (3100–3110), so several checkouts can run at once.
const firstPort = Number(process.env.E2E_PORT ?? 3100);
export const MAIN_URL = `http://127.0.0.1:${firstPort}`;
export const SHORT_URL = `http://127.0.0.1:${firstPort + 1}`;
/**
 * Existing clients' browser-approved link switched on (tests/e2e/compat.spec.ts); passkeys
 * (tests/e2e/passkeys.spec.ts) too, so it is named by host name: a browser refuses WebAuthn on an
 * IP address (its RP ID must be a domain). localhost still reaches the server on 127.0.0.1.
 */
export const COMPAT_URL = `http://localhost:${firstPort + 2}`;
/** The server tests/e2e/hardening.spec.ts starts itself. */
export const HARDENING_PORT = firstPort + 7;
/** The server tests/e2e/proxies.spec.ts starts itself, and the proxy it puts in front. */
export const PROXIES_PORTS = { server: firstPort + 4, proxy: firstPort + 5 };
/** The server tests/e2e/oidc.spec.ts starts itself, signing in through the spec's own OpenID provider (on a port of its own choosing). */
export const OIDC_PORT = firstPort + 3;
/** The second server of tests/e2e/oidc.spec.ts: SIGN_UP=off and LOCAL_PASSWORDS=off (firstPort + 6 is taken only in playwright.multi.config.ts's separate run). */
export const OIDC_CLOSED_PORT = firstPort + 6;
/** The server tests/e2e/passkey-phishing.spec.ts starts itself, and the phisher's proxy in front. */
export const PASSKEY_PHISHING_PORTS = { server: firstPort + 8, proxy: firstPort + 9 };
/** The server tests/e2e/mail.spec.ts starts itself, sending through the spec's own SMTP server. */
export const MAIL_PORT = firstPort + 10;
/** The two-instance suite's servers and balancer (playwright.multi.config.ts), and the two its start-up race starts itself. */
export const MULTI_PORTS = { a: firstPort + 2, b: firstPort + 3, balancer: firstPort + 6, race: [firstPort + 4, firstPort + 5] };

const postgresServer = process.env.TEST_POSTGRES_URL;

/** A scratch database for one server, emptied before it starts. */
export function scratchDatabase(name: string): string {
  if (!postgresServer) return `file:./.cache/e2e/${name}.db`;
  const url = new URL(postgresServer);
  // E2E_DATABASE_PREFIX keeps runs of several checkouts on one server apart.
  url.pathname = `/${process.env.E2E_DATABASE_PREFIX ?? "initlink_e2e"}_${name}`;
  return url.toString();
}

// Debian's Chromium where it is installed (CI, these machines), its headless shell first: the
// full browser in headless mode starts a third slower and ran the end-to-end stage 30% slower
// here; Playwright's own elsewhere.
const executablePath =
  process.env.CHROMIUM_PATH ?? ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"].find((path) => existsSync(path));

// Each server's output goes to its own file, not to the test output: tests/e2e/server-logs.ts
// prints the lines of a failing test.
export const server = (url: string, databaseUrl: string, env: Record<string, string> = {}, options: { reset?: boolean; appUrl?: string } = {}) => ({
  command: `(${options.reset === false ? "node scripts/start.mjs" : "node tests/setup/reset-database.mjs && node scripts/start.mjs"}) > ${serverLogFile(url)} 2>&1`,
  url: `${url}/api/live`,
  reuseExistingServer: false,
  timeout: 180_000,
  env: {
    PORT: new URL(url).port,
    HOSTNAME: "127.0.0.1",
    APP_URL: options.appUrl ?? url,
    DATABASE_URL: databaseUrl,
    // A fixed test key (32 bytes of 0x2a), so the suite never writes a development key file.
    MASTER_KEY: "KioqKioqKioqKioqKioqKioqKioqKioqKioqKioqKio=",
    NEXT_TELEMETRY_DISABLED: "1",
    // Every spec creates its inits, signs people up and approves new projects from 127.0.0.1: the
    // default limits (30 inits, 20 sign-ups or sign-ins a minute, 20 new projects an hour per
    // address) would make the suite's outcome depend on how many specs run at once (the limits
    // themselves: tests/api, tests/multi).
    CREATE_INIT_PER_MINUTE: "1000",
    SIGN_IN_PER_ADDRESS_PER_MINUTE: "1000",
    NEW_PROJECTS_PER_ADDRESS_PER_HOUR: "1000",
    ...env,
  },
});

export const browserOptions = {
  ...devices["Desktop Chrome"],
  screenshot: "only-on-failure" as const,
  launchOptions: {
    executablePath,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  },
};

// Specs of the browser alone: presentation (axe in four modes, the docs page, the pages' own
// behaviour: time zones, the favicon, headings, the way back after signing in), what Chromium
// signs behind a phishing proxy (the service's checks of it run on both databases in
// tests/api/passkeys/), and the way through an identity provider's pages (the service's part:
// tests/api/identity/, on both), and mail followed in the browser (tests/api/email/, on both). What they check is the same whatever the database, so the PostgreSQL pass
// of `npm test` leaves them to the SQLite one. (A page following a decision live on PostgreSQL:
// approval-flow.spec.ts, parked-waits.spec.ts.)
const BROWSER_ONLY = ["**/accessibility.spec.ts", "**/docs.spec.ts", "**/pages.spec.ts", "**/passkey-phishing.spec.ts", "**/oidc.spec.ts", "**/mail.spec.ts"];

export default defineConfig({
  testDir: "tests/e2e",
  testIgnore: postgresServer ? BROWSER_ONLY : [],
  forbidOnly: true,
  retries: 0,
  // Every test on its own accounts and inits, so tests of one file run side by side too: a test
  // waiting out SHORT_URL's 10 s lifetime, or axe's four audits, no longer holds up its file.
  // Files with one server or build for all their tests (hardening, cli) run theirs in order.
  fullyParallel: true,
  workers: 3,
  timeout: 60_000,
  reporter: [["list"], ["./tests/e2e/server-logs.ts"]],
  use: { ...browserOptions, baseURL: MAIN_URL },
  webServer: [
    // Webhook endpoints on 127.0.0.1, the specs' own receivers (tests/e2e/webhook-receiver.ts);
    // no other spec sends anywhere. Two quick retries: a failing endpoint ends, and is disabled, in seconds.
    server(MAIN_URL, scratchDatabase("main"), { OUTBOUND_ALLOW_PRIVATE: "true", WEBHOOK_RETRY_SCHEDULE: "1s,1s" }),
    server(SHORT_URL, scratchDatabase("short"), { INIT_LIFETIME_SECONDS: "10", INIT_INTERVAL_MS: "500" }),
    server(COMPAT_URL, scratchDatabase("compat"), { LEGACY_LINK_APPROVAL: "on", LEGACY_LINK_APPROVAL_SECONDS: "10", INIT_INTERVAL_MS: "1000" }),
  ],
});
