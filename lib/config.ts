import type { Env } from "./database-url";
import { ConfigError, parseConfig as parseEnv } from "./runtime/config.mjs";

// The service's settings, parsed once from the environment (lib/runtime/config.mjs checks them,
// in plain JavaScript so that npm start can check them before it migrates). `lib/` takes its
// settings from here and never reads process.env itself.

export { ConfigError };

export type Config = {
  appUrl: string;
  databaseUrl: string;
  port: number;
  /** The V8 heap limit (MiB) the primary gives each worker process (WORKER_HEAP_MB). */
  workerHeapMb: number;
  /** Requests one process holds open at once, `Prefer: wait` and event streams (lib/waiting-room.ts). */
  waitingPerProcess: number;
  initIntervalMs: number;
  initLifetimeMs: number;
  trustProxyHops: number;
  sqliteSynchronous: "FULL" | "NORMAL";
  /** Abuse limits (lib/limits/rules.ts). */
  limits: {
    createInitPerMinute: number;
    signInPerAddressPerMinute: number;
    signInFailuresPer15Minutes: number;
    signInsAtOncePerAccount: number;
    linksPerTokenPerMinute: number;
    pickupsPerInitPerMinute: number;
  };
  /** How often expired rows are deleted (lib/maintenance/sweep.ts). */
  sweepIntervalMs: number;
  /** How long an init is kept after it expired: late polls read `expired`, not 404. */
  initRetentionMs: number;
  /** How long an account's activity events are kept (lib/activity/). */
  activityRetentionMs: number;
  /** PostgreSQL connections per instance. */
  databasePoolSize: number;
  /** Where each process LISTENs for init change notices, if not DATABASE_URL (PostgreSQL). */
  databaseListenUrl: string | null;
  /** confirm: the page shows the user code and asks to confirm it; enter: the person types it. */
  initCodeCheck: "confirm" | "enter";
  sessionLifetimeMs: number;
  accessTokenLifetimeMs: number;
  /** AES-256 key that seals private keys at rest. */
  masterKey: Buffer;
  /** Lifetime of a link bearer (JWT); never past its access token's expiry. */
  linkLifetimeMs: number;
  /** Age at which the JWT signing key is replaced by a new one. */
  signingKeyRotationMs: number;
  /** Project key generation (lib/projects/key-queue.ts). */
  projectKeys: {
    /** Worker threads generating RSA keys at once. */
    threads: number;
    /** Ready key pairs kept per process. */
    reserve: number;
    /** Generations one account may have queued or running. */
    perAccount: number;
    /** How long a request waits for a key before it is answered 503. */
    waitMs: number;
    /** Pre-generated test key pairs used before any is generated (TEST_PROJECT_KEYS_FILE; NODE_ENV=test only). */
    testKeysFile: string | null;
  };
  /** Links approved in the browser for existing clients without an access token (docs/api.md, Compatibility). */
  legacyLinkApproval: {
    enabled: boolean;
    /** How long a waiting request or a decision stays; an approval not claimed by then is void. */
    lifetimeMs: number;
  };
  /** The bearer GET /api/metrics asks for; null: it answers loopback callers only. */
  metricsToken: string | null;
  /** scrypt's cost for new hashes: low only in the test suites (TEST_PASSWORD_COST; NODE_ENV=test only). */
  passwordCost: "full" | "low";
};

/** The configuration of `env`, or a ConfigError listing every bad value. */
export const parseConfig: (env: Env) => Config = parseEnv;

let loaded: Config | undefined;

export function config(): Config {
  loaded ??= parseConfig(process.env);
  return loaded;
}
