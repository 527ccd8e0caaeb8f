// @ts-check
// Every setting the service reads from the environment, checked in one place. Plain JavaScript
// so that `npm start` (scripts/start.mjs) and server.mjs can check it before they migrate the
// database or listen: a bad value stops them with its message. lib/config.ts parses it once for
// the app, its type is this function's; `lib/` takes its settings from there and never reads process.env.
import { readFileSync } from "node:fs";
import { isIP } from "node:net";
import { availableParallelism } from "node:os";
import { z } from "zod";
import { databaseProvider, databaseUrlFromEnv } from "./database-url.mjs";

/** @param {string} name @param {number} fallback @param {number} min @param {number} max */
const intFromEnv = (name, fallback, min, max) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value.trim() === "") return fallback;
      const parsed = Number(value);
      if (!Number.isInteger(parsed) || parsed < min || parsed > max) {
        ctx.addIssue({ code: "custom", message: `${name} must be a whole number from ${min} to ${max}` });
        return z.NEVER;
      }
      return parsed;
    });

/**
 * One of `values`, case ignored; the first is the default.
 * @template {string} T
 * @param {string} name @param {readonly [T, ...T[]]} values
 */
const enumFromEnv = (name, values) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value.trim() === "") return values[0];
      const match = values.find((candidate) => candidate.toLowerCase() === value.trim().toLowerCase());
      if (match === undefined) {
        ctx.addIssue({ code: "custom", message: `${name} must be ${values.join(" or ")}` });
        return z.NEVER;
      }
      return match;
    });

const appUrlSchema = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const raw = value?.trim() ?? "";
    // Unset: this machine on PORT (parseConfig), what a newcomer's browser opens.
    if (raw === "") return null;
    /** @type {URL} */
    let url;
    try {
      url = new URL(raw);
    } catch {
      ctx.addIssue({ code: "custom", message: "APP_URL must be an absolute URL such as https://initlink.example" });
      return z.NEVER;
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      ctx.addIssue({ code: "custom", message: "APP_URL must use http or https" });
      return z.NEVER;
    }
    if (url.pathname !== "/" || url.search || url.hash || url.username || url.password) {
      ctx.addIssue({ code: "custom", message: "APP_URL must be an origin only (no path, query or credentials)" });
      return z.NEVER;
    }
    return url.origin;
  });

// 32 random bytes, base64 or base64url (`openssl rand -base64 32`). It seals the private keys in
// the database (lib/crypto/sealed.ts); without it they cannot be read.
const masterKeySchema = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const text = value?.trim() ?? "";
    if (text === "") {
      ctx.addIssue({ code: "custom", message: "MASTER_KEY is not set: generate one with `openssl rand -base64 32` (see docs/design.md, Key management)" });
      return z.NEVER;
    }
    const key = /^[A-Za-z0-9+/_-]+={0,2}$/.test(text) ? Buffer.from(text, "base64") : Buffer.alloc(0);
    if (key.length !== 32) {
      ctx.addIssue({ code: "custom", message: "MASTER_KEY must be 32 bytes in base64 (44 characters, from `openssl rand -base64 32`)" });
      return z.NEVER;
    }
    return key;
  });

// A direct (session-mode) PostgreSQL URL for the LISTEN connection of lib/init/init-events.ts,
// when DATABASE_URL goes through a pooler in transaction mode (see docs/api.md, Waiting without polling).
const listenUrlSchema = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const url = value?.trim() ?? "";
    if (url === "") return null;
    if (databaseProvider(url) !== "postgresql") {
      ctx.addIssue({ code: "custom", message: "DATABASE_LISTEN_URL must be a postgresql:// URL" });
      return z.NEVER;
    }
    return url;
  });

// A bearer for GET /api/metrics (docs/operations.md): a scraper sends it as a Bearer credential.
const metricsTokenSchema = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const token = value?.trim() ?? "";
    if (token === "") return null;
    if (!/^[A-Za-z0-9\-._~+/]{32,256}$/.test(token)) {
      ctx.addIssue({ code: "custom", message: "METRICS_TOKEN must be 32 to 256 characters of A-Z, a-z, 0-9 and -._~+/ (e.g. from `openssl rand -hex 32`)" });
      return z.NEVER;
    }
    return token;
  });

// Settings for the test suites only (docs/testing.md): parseConfig refuses them unless NODE_ENV=test,
// which `next start`, `npm start` and server.mjs never run with.
const testKeysFileSchema = z
  .string()
  .optional()
  .transform((value) => value?.trim() || null);

// The OAuth client_ids the device authorization accepts (OAUTH_CLIENT_IDS), separated by commas,
// each trimmed: public clients prove nothing, so this is a list of names, not of credentials.
// Unset or empty: any client_id (null).
const oauthClientIdsSchema = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const entries = (value ?? "")
      .split(",")
      .map((entry) => entry.trim())
      .filter((entry) => entry !== "");
    for (const entry of entries) {
      // As a client_id is read (lib/oauth/schemas.ts): at most 200 characters, no control characters.
      if (entry.length > 200 || /\p{Cc}/u.test(entry)) {
        ctx.addIssue({ code: "custom", message: `OAUTH_CLIENT_IDS must list client_ids of at most 200 characters without control characters, not "${entry.slice(0, 40)}"` });
        return z.NEVER;
      }
    }
    return entries.length === 0 ? null : entries;
  });

// The proxies whose X-Forwarded-For is believed: addresses and CIDR ranges, IPv4 or IPv6, separated
// by commas or spaces. Each range as `address/prefix` (IPv4 ranges in IPv4 notation).
const trustedProxiesSchema = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const entries = (value ?? "").split(/[\s,]+/).filter((entry) => entry !== "");
    /** @type {string[]} */
    const ranges = [];
    for (const entry of entries) {
      const [address, prefix, extra] = entry.split("/");
      const family = isIP(address);
      const bits = family === 4 ? 32 : 128;
      const length = prefix === undefined ? bits : /^\d{1,3}$/.test(prefix) ? Number(prefix) : NaN;
      if (family === 0 || extra !== undefined || !(length >= 0 && length <= bits)) {
        ctx.addIssue({ code: "custom", message: `TRUSTED_PROXIES must list addresses or CIDR ranges (10.0.0.0/8, 2001:db8::/32), not "${entry}"` });
        return z.NEVER;
      }
      ranges.push(`${address.toLowerCase()}/${length}`);
    }
    return ranges;
  });

// The platform's OpenID Connect provider (lib/identity/), discovered from its issuer's metadata
// (`<OIDC_ISSUER>/.well-known/openid-configuration`). https, as OpenID Connect Discovery §4
// requires; http only on this machine (a provider on a developer's laptop, the tests').
const oidcIssuerSchema = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const raw = value?.trim() ?? "";
    if (raw === "") return null;
    /** @type {URL} */
    let url;
    try {
      url = new URL(raw);
    } catch {
      ctx.addIssue({ code: "custom", message: "OIDC_ISSUER must be an absolute URL such as https://login.example.com/realms/acme" });
      return z.NEVER;
    }
    const loopback = url.hostname === "localhost" || url.hostname === "[::1]" || (isIP(url.hostname) === 4 && url.hostname.startsWith("127."));
    if (url.protocol !== "https:" && !(url.protocol === "http:" && loopback)) {
      ctx.addIssue({ code: "custom", message: "OIDC_ISSUER must use https (http only on localhost, 127.0.0.0/8 or [::1])" });
      return z.NEVER;
    }
    if (url.search || url.hash || url.username || url.password) {
      ctx.addIssue({ code: "custom", message: "OIDC_ISSUER must be the issuer's URL only (no query, fragment or credentials)" });
      return z.NEVER;
    }
    return raw;
  });

/** Text of 1 to `max` characters without control characters, or null when unset. @param {string} name @param {number} max */
const plainTextFromEnv = (name, max) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      const text = value?.trim() ?? "";
      if (text === "") return null;
      if (text.length > max || /\p{Cc}/u.test(text)) {
        ctx.addIssue({ code: "custom", message: `${name} must be at most ${max} characters without control characters` });
        return z.NEVER;
      }
      return text;
    });

// RFC 6749 §3.3: scope tokens separated by spaces; OpenID Connect Core §3.1.2.1: `openid` among them.
const oidcScopesSchema = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const scopes = (value ?? "").split(/\s+/).filter((scope) => scope !== "");
    if (scopes.length === 0) return ["openid", "email", "profile"];
    if (!scopes.includes("openid") || scopes.some((scope) => !/^[\x21\x23-\x5b\x5d-\x7e]{1,100}$/.test(scope)) || scopes.length > 20) {
      ctx.addIssue({ code: "custom", message: "OIDC_SCOPES must list scopes separated by spaces, openid among them (e.g. openid email profile)" });
      return z.NEVER;
    }
    return [...new Set(scopes)];
  });

// The mail server initlink sends through (lib/email/): smtp:// (upgraded with STARTTLS when the
// server offers it; `?requireTLS=true` insists) or smtps:// (TLS from the start), with the
// account's credentials in the URL. It is a secret: never logged.
const smtpUrlSchema = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const raw = value?.trim() ?? "";
    if (raw === "") return null;
    /** @type {URL | null} */
    let url = null;
    try {
      url = new URL(raw);
    } catch {
      url = null;
    }
    if (url === null || (url.protocol !== "smtp:" && url.protocol !== "smtps:") || url.hostname === "") {
      ctx.addIssue({ code: "custom", message: "SMTP_URL must be an smtp:// or smtps:// URL such as smtp://user:password@mail.example.com:587" });
      return z.NEVER;
    }
    return raw;
  });

// The sender of every mail: an address, or a name and an address (`initlink <login@example.com>`).
const emailFromSchema = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const text = value?.trim() ?? "";
    if (text === "") return null;
    if (text.length > 200 || /\p{Cc}/u.test(text) || !/^(?:[^<>@]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/u.test(text)) {
      ctx.addIssue({ code: "custom", message: "EMAIL_FROM must be an address (login@example.com) or a name and an address (initlink <login@example.com>)" });
      return z.NEVER;
    }
    return text;
  });

// The platform's logo on every page (APP_LOGO): an SVG, PNG or WebP file of this machine, read
// once at start and put into the pages as a data: URL, so that nothing loads from another origin
// and the pages' Content-Security-Policy stays as it is. Small, as every page carries it.
const LOGO_TYPES = /** @type {const} */ ({ ".svg": "image/svg+xml", ".png": "image/png", ".webp": "image/webp" });
const LOGO_MAX_BYTES = 32 * 1024;
const appLogoSchema = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const file = value?.trim() ?? "";
    if (file === "") return null;
    const extension = /** @type {keyof typeof LOGO_TYPES | undefined} */ (Object.keys(LOGO_TYPES).find((ending) => file.toLowerCase().endsWith(ending)));
    /** @type {Buffer | null} */
    let bytes = null;
    try {
      bytes = extension === undefined ? null : readFileSync(file);
    } catch {
      bytes = null;
    }
    if (extension === undefined || bytes === null || bytes.length === 0 || bytes.length > LOGO_MAX_BYTES) {
      ctx.addIssue({ code: "custom", message: `APP_LOGO must be a readable .svg, .png or .webp file of this machine, at most ${LOGO_MAX_BYTES / 1024} KiB` });
      return z.NEVER;
    }
    return `data:${LOGO_TYPES[extension]};base64,${bytes.toString("base64")}`;
  });

const HOUR_MS = 60 * 60 * 1000;
const LIFETIME_CHOICE = /^([1-9]\d{0,4})([hd])$/;
/** The longest access a person may choose: ten years, as ACCESS_TOKEN_LIFETIME_DAYS allows. */
const MAX_LIFETIME_MS = 3650 * 24 * HOUR_MS;

// The access lifetimes a person may choose on the approval page (lib/init/access-lifetime.ts):
// up to eight choices such as `1h,1d,30d,90d`, hours or days, the longest the maximum. Each is
// kept with its spelling, which the form sends and the page shows. Not set: 1h, 1d and 30d
// shorter than ACCESS_TOKEN_LIFETIME_DAYS, and that lifetime, preselected, as before the choice existed.
const accessLifetimeChoicesSchema = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const entries = (value ?? "").split(/[\s,]+/).filter((entry) => entry !== "");
    /** @type {{ label: string, ms: number }[]} */
    const choices = [];
    for (const entry of entries) {
      const match = LIFETIME_CHOICE.exec(entry.toLowerCase());
      const ms = match === null ? NaN : Number(match[1]) * (match[2] === "h" ? HOUR_MS : 24 * HOUR_MS);
      if (match === null || ms > MAX_LIFETIME_MS) {
        ctx.addIssue({ code: "custom", message: `ACCESS_LIFETIME_CHOICES must list lifetimes such as 1h,1d,30d,90d (hours or days, at most 3650d), not "${entry}"` });
        return z.NEVER;
      }
      if (!choices.some((choice) => choice.ms === ms)) choices.push({ label: `${match[1]}${match[2]}`, ms });
    }
    if (choices.length > 8) {
      ctx.addIssue({ code: "custom", message: "ACCESS_LIFETIME_CHOICES must list at most 8 lifetimes" });
      return z.NEVER;
    }
    return choices.sort((a, b) => a.ms - b.ms);
  });

/**
 * What TRUST_PROXY_HOPS alone (without TRUSTED_PROXIES) trusts since a hop count stopped being
 * enough: it believed X-Forwarded-For from any peer, so a client reaching the port directly picked
 * its own address. Loopback, private and link-local ranges are where a deployment's proxy sits;
 * a client on the internet is none of them.
 */
export const LEGACY_PROXY_RANGES = ["127.0.0.0/8", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "169.254.0.0/16", "::1/128", "fc00::/7", "fe80::/10"];

const RETRY_DELAY = /^(\d{1,6})(s|m|h|d)$/;
const RETRY_UNIT_MS = { s: 1000, m: 60_000, h: HOUR_MS, d: 24 * HOUR_MS };
/**
 * The default: Standard Webhooks' suggested schedule stretched to about three days (5 s, 5 min,
 * 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 20 h: 71 h 35 min after the first attempt).
 */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE = "5s,5m,30m,2h,5h,10h,14h,20h,20h";

// WEBHOOK_RETRY_SCHEDULE: the waits before each retry of a webhook delivery (lib/events/delivery.ts),
// each a number and s, m, h or d; after the last one fails the delivery has failed.
const webhookRetryScheduleSchema = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const entries = (value === undefined || value.trim() === "" ? DEFAULT_WEBHOOK_RETRY_SCHEDULE : value).split(/[\s,]+/).filter((entry) => entry !== "");
    /** @type {number[]} */
    const delays = [];
    for (const entry of entries) {
      const match = RETRY_DELAY.exec(entry.toLowerCase());
      const unit = match === null ? undefined : RETRY_UNIT_MS[/** @type {keyof typeof RETRY_UNIT_MS} */ (match[2])];
      const ms = match === null || unit === undefined ? NaN : Number(match[1]) * unit;
      if (Number.isNaN(ms) || ms > 7 * 24 * HOUR_MS) {
        ctx.addIssue({ code: "custom", message: `WEBHOOK_RETRY_SCHEDULE must list waits such as 5s,5m,30m,2h (s, m, h or d, each at most 7d), not "${entry}"` });
        return z.NEVER;
      }
      delays.push(ms);
    }
    if (delays.length === 0 || delays.length > 30) {
      ctx.addIssue({ code: "custom", message: "WEBHOOK_RETRY_SCHEDULE must list between 1 and 30 waits" });
      return z.NEVER;
    }
    return delays;
  });

const envSchema = z.object({
  APP_URL: appUrlSchema,
  APP_NAME: plainTextFromEnv("APP_NAME", 40),
  APP_LOGO: appLogoSchema,
  PORT: intFromEnv("PORT", 3000, 1, 65535),
  // 0: one worker process per core (server/worker-count.mjs).
  WEB_CONCURRENCY: intFromEnv("WEB_CONCURRENCY", 0, 1, 256),
  WORKER_HEAP_MB: intFromEnv("WORKER_HEAP_MB", 384, 64, 65_536),
  // 0: from WORKER_HEAP_MB (waitingPerProcess below).
  WAITING_PER_PROCESS: intFromEnv("WAITING_PER_PROCESS", 0, 1, 1_000_000),
  INIT_INTERVAL_MS: intFromEnv("INIT_INTERVAL_MS", 5000, 100, 600_000),
  INIT_LIFETIME_SECONDS: intFromEnv("INIT_LIFETIME_SECONDS", 900, 10, 86_400),
  TRUST_PROXY_HOPS: intFromEnv("TRUST_PROXY_HOPS", 0, 0, 10),
  TRUSTED_PROXIES: trustedProxiesSchema,
  INIT_CODE_CHECK: enumFromEnv("INIT_CODE_CHECK", /** @type {const} */ (["confirm", "enter"])),
  SESSION_LIFETIME_DAYS: intFromEnv("SESSION_LIFETIME_DAYS", 30, 1, 365),
  ACCESS_TOKEN_LIFETIME_DAYS: intFromEnv("ACCESS_TOKEN_LIFETIME_DAYS", 90, 1, 3650),
  ACCESS_LIFETIME_CHOICES: accessLifetimeChoicesSchema,
  PROXIMITY_IPV4_PREFIX: intFromEnv("PROXIMITY_IPV4_PREFIX", 24, 0, 32),
  PROXIMITY_IPV6_PREFIX: intFromEnv("PROXIMITY_IPV6_PREFIX", 56, 0, 128),
  REFRESH_TOKEN_IDLE_DAYS: intFromEnv("REFRESH_TOKEN_IDLE_DAYS", 30, 1, 3650),
  SQLITE_SYNCHRONOUS: enumFromEnv("SQLITE_SYNCHRONOUS", /** @type {const} */ (["FULL", "NORMAL"])),
  CREATE_INIT_PER_MINUTE: intFromEnv("CREATE_INIT_PER_MINUTE", 30, 1, 1_000_000),
  SIGN_IN_PER_ADDRESS_PER_MINUTE: intFromEnv("SIGN_IN_PER_ADDRESS_PER_MINUTE", 20, 1, 1_000_000),
  SIGN_IN_FAILURES_PER_15_MINUTES: intFromEnv("SIGN_IN_FAILURES_PER_15_MINUTES", 5, 1, 1_000_000),
  SIGN_INS_AT_ONCE_PER_ACCOUNT: intFromEnv("SIGN_INS_AT_ONCE_PER_ACCOUNT", 1, 1, 100),
  LINKS_PER_TOKEN_PER_MINUTE: intFromEnv("LINKS_PER_TOKEN_PER_MINUTE", 60, 1, 1_000_000),
  PICKUPS_PER_INIT_PER_MINUTE: intFromEnv("PICKUPS_PER_INIT_PER_MINUTE", 30, 1, 1_000_000),
  INTROSPECTIONS_PER_TOKEN_PER_MINUTE: intFromEnv("INTROSPECTIONS_PER_TOKEN_PER_MINUTE", 600, 1, 1_000_000),
  INTROSPECTIONS_PER_RESOURCE_SERVER_PER_MINUTE: intFromEnv("INTROSPECTIONS_PER_RESOURCE_SERVER_PER_MINUTE", 6000, 1, 1_000_000),
  NEW_PROJECTS_PER_ACCOUNT_PER_HOUR: intFromEnv("NEW_PROJECTS_PER_ACCOUNT_PER_HOUR", 10, 1, 1_000_000),
  NEW_PROJECTS_PER_ADDRESS_PER_HOUR: intFromEnv("NEW_PROJECTS_PER_ADDRESS_PER_HOUR", 20, 1, 1_000_000),
  PROJECTS_PER_ACCOUNT: intFromEnv("PROJECTS_PER_ACCOUNT", 100, 1, 1_000_000),
  SWEEP_INTERVAL_SECONDS: intFromEnv("SWEEP_INTERVAL_SECONDS", 300, 1, 86_400),
  INIT_RETENTION_SECONDS: intFromEnv("INIT_RETENTION_SECONDS", 86_400, 0, 31_536_000),
  ACTIVITY_RETENTION_DAYS: intFromEnv("ACTIVITY_RETENTION_DAYS", 90, 1, 3650),
  DATABASE_POOL_SIZE: intFromEnv("DATABASE_POOL_SIZE", 10, 1, 500),
  DATABASE_LISTEN_URL: listenUrlSchema,
  MASTER_KEY: masterKeySchema,
  LINK_LIFETIME_DAYS: intFromEnv("LINK_LIFETIME_DAYS", 30, 1, 365),
  SIGNING_KEY_ROTATION_DAYS: intFromEnv("SIGNING_KEY_ROTATION_DAYS", 30, 1, 3650),
  // 0: the process's share of the cores (see parseConfig).
  PROJECT_KEY_THREADS: intFromEnv("PROJECT_KEY_THREADS", 0, 1, 256),
  PROJECT_KEY_RESERVE: intFromEnv("PROJECT_KEY_RESERVE", 4, 0, 100),
  PROJECT_KEY_QUEUE_PER_ACCOUNT: intFromEnv("PROJECT_KEY_QUEUE_PER_ACCOUNT", 2, 1, 100),
  PROJECT_KEY_WAIT_MS: intFromEnv("PROJECT_KEY_WAIT_MS", 3000, 0, 600_000),
  LEGACY_LINK_APPROVAL: enumFromEnv("LEGACY_LINK_APPROVAL", /** @type {const} */ (["off", "on"])),
  LEGACY_LINK_APPROVAL_SECONDS: intFromEnv("LEGACY_LINK_APPROVAL_SECONDS", 300, 5, 3600),
  METRICS_TOKEN: metricsTokenSchema,
  OAUTH_CLIENT_IDS: oauthClientIdsSchema,
  OIDC_ISSUER: oidcIssuerSchema,
  OIDC_CLIENT_ID: plainTextFromEnv("OIDC_CLIENT_ID", 255),
  OIDC_CLIENT_SECRET: plainTextFromEnv("OIDC_CLIENT_SECRET", 1024),
  OIDC_DISPLAY_NAME: plainTextFromEnv("OIDC_DISPLAY_NAME", 60),
  OIDC_SCOPES: oidcScopesSchema,
  SIGN_UP: enumFromEnv("SIGN_UP", /** @type {const} */ (["open", "invite", "off"])),
  LOCAL_PASSWORDS: enumFromEnv("LOCAL_PASSWORDS", /** @type {const} */ (["on", "off"])),
  SMTP_URL: smtpUrlSchema,
  EMAIL_FROM: emailFromSchema,
  EMAIL_VERIFICATION: enumFromEnv("EMAIL_VERIFICATION", /** @type {const} */ (["optional", "required"])),
  WEBHOOK_RETRY_SCHEDULE: webhookRetryScheduleSchema,
  OUTBOUND_ALLOW_PRIVATE: enumFromEnv("OUTBOUND_ALLOW_PRIVATE", /** @type {const} */ (["false", "true"])),
  TEST_PASSWORD_COST: enumFromEnv("TEST_PASSWORD_COST", /** @type {const} */ (["full", "low"])),
  TEST_PROJECT_KEYS_FILE: testKeysFileSchema,
});

/** The settings read from the environment through envSchema (.env.example lists them, with HOSTNAME and DATABASE_URL read apart). */
export const SETTING_NAMES = Object.keys(envSchema.shape);

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Settings that still work but whose meaning changed: said once at start (check-environment.mjs),
 * never a reason not to start. @param {Record<string, string | undefined>} env
 */
export function configWarnings(env) {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success || parsed.data.TRUST_PROXY_HOPS === 0) return [];
  if (parsed.data.TRUSTED_PROXIES.length > 0) return ["TRUST_PROXY_HOPS is ignored: TRUSTED_PROXIES says which proxies' X-Forwarded-For is believed; remove TRUST_PROXY_HOPS"];
  return [
    `TRUST_PROXY_HOPS alone now believes X-Forwarded-For only from loopback and private addresses (${LEGACY_PROXY_RANGES.join(", ")}): set TRUSTED_PROXIES to your proxies' addresses or ranges instead (docs/deploying.md)`,
  ];
}

/**
 * @param {{ label: string, ms: number }[]} listed ACCESS_LIFETIME_CHOICES, shortest first
 * @param {number} configuredMs ACCESS_TOKEN_LIFETIME_DAYS
 */
function accessLifetimes(listed, configuredMs) {
  const defaults = [
    { label: "1h", ms: DAY_MS / 24 },
    { label: "1d", ms: DAY_MS },
    { label: "30d", ms: 30 * DAY_MS },
  ].filter((choice) => choice.ms < configuredMs);
  const choices = listed.length > 0 ? listed : [...defaults, { label: `${configuredMs / DAY_MS}d`, ms: configuredMs }];
  const preselected = choices.find((choice) => choice.ms === configuredMs) ?? choices[choices.length - 1];
  return { choices, preselected };
}

/** The names of the provider's settings besides OIDC_ISSUER. */
const OIDC_SETTINGS = /** @type {const} */ (["OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET", "OIDC_DISPLAY_NAME", "OIDC_SCOPES"]);

/**
 * The OpenID Connect provider people may sign in with (lib/identity/), or null: none without
 * OIDC_ISSUER. Its client is confidential (a secret, and PKCE on top), so both are required.
 * @param {z.infer<typeof envSchema>} parsed @param {Record<string, string | undefined>} env
 */
function oidcProviderSettings(parsed, env) {
  if (parsed.OIDC_ISSUER === null) {
    const stray = OIDC_SETTINGS.filter((name) => (env[name] ?? "").trim() !== "");
    if (stray.length > 0) throw new ConfigError(`Invalid configuration:\n  - ${stray.join(", ")} set without OIDC_ISSUER: set the provider's issuer too, or remove them`);
    return null;
  }
  const missing = [parsed.OIDC_CLIENT_ID === null && "OIDC_CLIENT_ID", parsed.OIDC_CLIENT_SECRET === null && "OIDC_CLIENT_SECRET"].filter(Boolean);
  if (parsed.OIDC_CLIENT_ID === null || parsed.OIDC_CLIENT_SECRET === null) {
    throw new ConfigError(`Invalid configuration:\n  - OIDC_ISSUER needs ${missing.join(" and ")}: the client registered at the provider (docs/integrating.md)`);
  }
  return {
    issuer: parsed.OIDC_ISSUER,
    clientId: parsed.OIDC_CLIENT_ID,
    clientSecret: parsed.OIDC_CLIENT_SECRET,
    // The button says "Sign in with <displayName>".
    displayName: parsed.OIDC_DISPLAY_NAME ?? new URL(parsed.OIDC_ISSUER).host,
    scopes: parsed.OIDC_SCOPES,
  };
}

/**
 * Who may make an account, and whether passwords are used at all (lib/auth/account-policy.ts).
 * @param {z.infer<typeof envSchema>} parsed @param {ReturnType<typeof oidcProviderSettings>} oidc
 */
function accountSettings(parsed, oidc) {
  if (parsed.LOCAL_PASSWORDS === "off" && oidc === null) {
    throw new ConfigError("Invalid configuration:\n  - LOCAL_PASSWORDS=off needs OIDC_ISSUER: without passwords, people sign in through the identity provider (and passkeys)");
  }
  return { selfSignUp: parsed.SIGN_UP === "open", inviteSignUp: parsed.SIGN_UP === "invite", localPasswords: parsed.LOCAL_PASSWORDS === "on" };
}

/**
 * The mail initlink sends (lib/email/), or null: without SMTP_URL nothing is sent, and nothing
 * that needs mail (a password reset, a required verification) is offered.
 * @param {z.infer<typeof envSchema>} parsed
 */
function emailSettings(parsed) {
  if (parsed.SMTP_URL === null) {
    const needsMail = [parsed.EMAIL_FROM !== null && "EMAIL_FROM", parsed.EMAIL_VERIFICATION === "required" && "EMAIL_VERIFICATION=required"].filter(Boolean);
    if (needsMail.length > 0) throw new ConfigError(`Invalid configuration:\n  - ${needsMail.join(" and ")} set without SMTP_URL: set the mail server too, or remove them`);
    return null;
  }
  if (parsed.EMAIL_FROM === null) throw new ConfigError("Invalid configuration:\n  - SMTP_URL needs EMAIL_FROM: the address mail comes from (initlink <login@example.com>)");
  return { smtpUrl: parsed.SMTP_URL, from: parsed.EMAIL_FROM, verificationRequired: parsed.EMAIL_VERIFICATION === "required" };
}

export class ConfigError extends Error {}

/**
 * The configuration of `env`, or a ConfigError listing every bad value.
 * @param {Record<string, string | undefined>} env
 */
export function parseConfig(env) {
  const result = envSchema.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `  - ${issue.message}`).join("\n");
    throw new ConfigError(`Invalid configuration:\n${problems}`);
  }
  const parsed = result.data;
  const testOnly = [parsed.TEST_PASSWORD_COST === "low" && "TEST_PASSWORD_COST=low", parsed.TEST_PROJECT_KEYS_FILE !== null && "TEST_PROJECT_KEYS_FILE"].filter(Boolean);
  if (testOnly.length > 0 && env.NODE_ENV !== "test") {
    throw new ConfigError(`Invalid configuration:\n  - ${testOnly.join(" and ")}: for the test suites only, refused unless NODE_ENV=test (see docs/testing.md)`);
  }
  const databaseUrl = databaseUrlFromEnv(env);
  if (databaseProvider(databaseUrl) === null) {
    throw new ConfigError("Invalid configuration:\n  - DATABASE_URL must be a file: URL (SQLite, e.g. file:./data/initlink.db) or a postgresql:// URL");
  }
  // Parked at the edge (server/parking.mjs), a status request keeps about 12 KiB of live heap
  // and an event stream about 19 KiB (docs/benchmark.md): 64 a MiB of the heap above 128 MiB
  // budget 16 KiB a request (16,384 for the default 384 MiB). Streams share that room, so at
  // most 24 a MiB may be streams (6,144): the fullest room, those streams and the rest waits,
  // keeps 6,144 × 19 + 10,240 × 12 KiB, about 236 MiB of the 256.
  const oidc = oidcProviderSettings(parsed, env);
  const accounts = accountSettings(parsed, oidc);
  const email = emailSettings(parsed);
  const waitingPerProcess = parsed.WAITING_PER_PROCESS || Math.max(100, (parsed.WORKER_HEAP_MB - 128) * 64);
  return {
    appUrl: parsed.APP_URL ?? `http://localhost:${parsed.PORT}`,
    /** The name on every page, title and mail, and the logo (a data: URL) beside it, or the default mark (APP_NAME, APP_LOGO). */
    brand: { name: parsed.APP_NAME ?? "initlink", logo: parsed.APP_LOGO },
    databaseUrl,
    port: parsed.PORT,
    /** The V8 heap limit (MiB) the primary gives each worker process (WORKER_HEAP_MB). */
    workerHeapMb: parsed.WORKER_HEAP_MB,
    /** Requests one process holds open at once, `Prefer: wait` and event streams (lib/api/waiting-room.ts). */
    waitingPerProcess,
    /** Of those, event streams (lib/api/waiting-room.ts). */
    streamsPerProcess: Math.min(waitingPerProcess, Math.max(100, (parsed.WORKER_HEAP_MB - 128) * 24)),
    initIntervalMs: parsed.INIT_INTERVAL_MS,
    initLifetimeMs: parsed.INIT_LIFETIME_SECONDS * 1000,
    /**
     * The proxies whose X-Forwarded-For is believed, walked from the right while each hop is one
     * of `ranges`, at most `maxHops` hops (lib/api/client-address.ts). TRUST_PROXY_HOPS alone
     * still works, for LEGACY_PROXY_RANGES only (configWarnings says so).
     */
    trustedProxies:
      parsed.TRUSTED_PROXIES.length > 0
        ? { ranges: parsed.TRUSTED_PROXIES, maxHops: Number.POSITIVE_INFINITY }
        : { ranges: parsed.TRUST_PROXY_HOPS > 0 ? LEGACY_PROXY_RANGES : [], maxHops: parsed.TRUST_PROXY_HOPS },
    sqliteSynchronous: parsed.SQLITE_SYNCHRONOUS,
    /** PostgreSQL connections per instance. */
    databasePoolSize: parsed.DATABASE_POOL_SIZE,
    /** Where each process LISTENs for init change notices, if not DATABASE_URL (PostgreSQL). */
    databaseListenUrl: parsed.DATABASE_LISTEN_URL,
    /** How often expired rows are deleted (lib/maintenance/sweep.ts). */
    sweepIntervalMs: parsed.SWEEP_INTERVAL_SECONDS * 1000,
    /** How long an init is kept after it expired: late polls read `expired`, not 404. */
    initRetentionMs: parsed.INIT_RETENTION_SECONDS * 1000,
    /** How long an account's activity events are kept (lib/activity/). */
    activityRetentionMs: parsed.ACTIVITY_RETENTION_DAYS * DAY_MS,
    /** Abuse limits (lib/limits/rules.ts). */
    limits: {
      createInitPerMinute: parsed.CREATE_INIT_PER_MINUTE,
      signInPerAddressPerMinute: parsed.SIGN_IN_PER_ADDRESS_PER_MINUTE,
      signInFailuresPer15Minutes: parsed.SIGN_IN_FAILURES_PER_15_MINUTES,
      signInsAtOncePerAccount: parsed.SIGN_INS_AT_ONCE_PER_ACCOUNT,
      linksPerTokenPerMinute: parsed.LINKS_PER_TOKEN_PER_MINUTE,
      pickupsPerInitPerMinute: parsed.PICKUPS_PER_INIT_PER_MINUTE,
      introspectionsPerTokenPerMinute: parsed.INTROSPECTIONS_PER_TOKEN_PER_MINUTE,
      introspectionsPerResourceServerPerMinute: parsed.INTROSPECTIONS_PER_RESOURCE_SERVER_PER_MINUTE,
      newProjectsPerAccountPerHour: parsed.NEW_PROJECTS_PER_ACCOUNT_PER_HOUR,
      newProjectsPerAddressPerHour: parsed.NEW_PROJECTS_PER_ADDRESS_PER_HOUR,
      projectsPerAccount: parsed.PROJECTS_PER_ACCOUNT,
    },
    /** confirm: the page shows the user code and asks to confirm it; enter: the person types it. */
    initCodeCheck: parsed.INIT_CODE_CHECK,
    sessionLifetimeMs: parsed.SESSION_LIFETIME_DAYS * DAY_MS,
    /**
     * The access lifetimes a person may choose when approving, shortest first, and the one the
     * page preselects: ACCESS_TOKEN_LIFETIME_DAYS when it is among them, else the longest.
     */
    accessLifetimes: accessLifetimes(parsed.ACCESS_LIFETIME_CHOICES, parsed.ACCESS_TOKEN_LIFETIME_DAYS * DAY_MS),
    /** The network an approving browser shares with the client when their addresses share this many leading bits (lib/init/proximity.ts). */
    proximityPrefixes: { ipv4: parsed.PROXIMITY_IPV4_PREFIX, ipv6: parsed.PROXIMITY_IPV6_PREFIX },
    /** How long an OAuth refresh token lasts unused (lib/oauth/login-lifetime.ts); a login ends with the access lifetime the person chose. */
    refreshTokenIdleMs: parsed.REFRESH_TOKEN_IDLE_DAYS * DAY_MS,
    /** AES-256 key that seals private keys at rest. */
    masterKey: parsed.MASTER_KEY,
    /** Lifetime of a link bearer (JWT); never past its access token's expiry. */
    linkLifetimeMs: parsed.LINK_LIFETIME_DAYS * DAY_MS,
    /** Age at which the JWT signing key is replaced by a new one. */
    signingKeyRotationMs: parsed.SIGNING_KEY_ROTATION_DAYS * DAY_MS,
    /** Project key generation (lib/projects/key-queue.ts): worker threads, ready pairs kept per process, generations one account may have queued or running, how long a request waits for a key before 503. */
    projectKeys: {
      // By default the worker processes share the cores out: each process's threads take its share.
      threads: parsed.PROJECT_KEY_THREADS || Math.max(1, Math.floor(availableParallelism() / (parsed.WEB_CONCURRENCY || availableParallelism()))),
      reserve: parsed.PROJECT_KEY_RESERVE,
      perAccount: parsed.PROJECT_KEY_QUEUE_PER_ACCOUNT,
      waitMs: parsed.PROJECT_KEY_WAIT_MS,
      testKeysFile: parsed.TEST_PROJECT_KEYS_FILE,
    },
    /** Links approved in the browser for existing clients without an access token (docs/api.md, Compatibility); an approval not claimed within lifetimeMs is void. */
    legacyLinkApproval: { enabled: parsed.LEGACY_LINK_APPROVAL === "on", lifetimeMs: parsed.LEGACY_LINK_APPROVAL_SECONDS * 1000 },
    /** The bearer GET /api/metrics asks for; null: it answers loopback callers only. */
    metricsToken: parsed.METRICS_TOKEN,
    /** The client_ids the device authorization accepts (others: invalid_client); null: any (lib/oauth/client-ids.ts). */
    oauthClientIds: parsed.OAUTH_CLIENT_IDS,
    /** The OpenID Connect provider people sign in with (lib/identity/), its redirect URI `{appUrl}/auth/oidc/callback`; null: none. */
    oidc,
    /** SIGN_UP=open (anyone makes an account with a password; off: accounts come from the identity provider) and LOCAL_PASSWORDS=on. */
    accounts,
    /** The mail server, sender and whether approvals wait for a verified email (EMAIL_VERIFICATION=required); null: no mail. */
    email,
    /** The waits before each retry of a webhook delivery, in ms (WEBHOOK_RETRY_SCHEDULE). */
    webhookRetryScheduleMs: parsed.WEBHOOK_RETRY_SCHEDULE,
    /**
     * Requests the service makes to addresses a person chose (webhook endpoints, lib/outbound/):
     * private, loopback, link-local and special-purpose addresses, and plain http, only with
     * OUTBOUND_ALLOW_PRIVATE=true; a loopback host also in development (npm run dev).
     */
    outbound: { allowPrivate: parsed.OUTBOUND_ALLOW_PRIVATE === "true", allowLoopback: env.NODE_ENV === "development" },
    passwordCost: parsed.TEST_PASSWORD_COST,
  };
}
