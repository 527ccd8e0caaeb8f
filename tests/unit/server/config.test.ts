import { mkdtempSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "@/lib/config";
import { configWarnings, LEGACY_PROXY_RANGES } from "@/server/config.mjs";

// Every configuration needs a master key; 32 bytes of 0x01 in base64.
const MASTER_KEY = Buffer.alloc(32, 1).toString("base64");
const withKey = (env: Record<string, string>) => ({ MASTER_KEY, ...env });

describe("parseConfig", () => {
  it("has documented defaults", () => {
    expect(parseConfig({ MASTER_KEY })).toEqual({
      appUrl: "http://localhost:3000",
      brand: { name: "initlink", logo: null },
      databaseUrl: "file:./data/initlink.db",
      port: 3000,
      initIntervalMs: 5000,
      initLifetimeMs: 900_000,
      trustedProxies: { ranges: [], maxHops: 0 },
      sqliteSynchronous: "FULL",
      workerHeapMb: 384,
      waitingPerProcess: 16_384,
      streamsPerProcess: 6144,
      databasePoolSize: 10,
      databaseListenUrl: null,
      sweepIntervalMs: 300_000,
      initRetentionMs: 86_400_000,
      activityRetentionMs: 90 * 86_400_000,
      limits: {
        createInitPerMinute: 30,
        signInPerAddressPerMinute: 20,
        signInFailuresPer15Minutes: 5,
        signInsAtOncePerAccount: 1,
        linksPerTokenPerMinute: 60,
        pickupsPerInitPerMinute: 30,
        introspectionsPerTokenPerMinute: 600,
        introspectionsPerResourceServerPerMinute: 6000,
        newProjectsPerAccountPerHour: 10,
        newProjectsPerAddressPerHour: 20,
        projectsPerAccount: 100,
      },
      initCodeCheck: "confirm",
      sessionLifetimeMs: 30 * 86_400_000,
      accessLifetimes: {
        choices: [
          { label: "1h", ms: 3_600_000 },
          { label: "1d", ms: 86_400_000 },
          { label: "30d", ms: 30 * 86_400_000 },
          { label: "90d", ms: 90 * 86_400_000 },
        ],
        preselected: { label: "90d", ms: 90 * 86_400_000 },
      },
      proximityPrefixes: { ipv4: 24, ipv6: 56 },
      refreshTokenIdleMs: 30 * 86_400_000,
      masterKey: Buffer.alloc(32, 1),
      linkLifetimeMs: 30 * 86_400_000,
      signingKeyRotationMs: 30 * 86_400_000,
      // A worker process per core by default, so one key thread each.
      projectKeys: { threads: 1, reserve: 4, perAccount: 2, waitMs: 3000, testKeysFile: null },
      legacyLinkApproval: { enabled: false, lifetimeMs: 300_000 },
      metricsToken: null,
      oauthClientIds: null,
      oidc: null,
      accounts: { selfSignUp: true, inviteSignUp: false, localPasswords: true },
      email: null,
      webhookRetryScheduleMs: [5000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000, 72_000_000, 72_000_000],
      outbound: { allowPrivate: false, allowLoopback: false },
      passwordCost: "full",
    });
  });

  it("takes WEBHOOK_RETRY_SCHEDULE as 1 to 30 waits of seconds, minutes, hours or days, each at most 7 days", () => {
    expect(parseConfig(withKey({ WEBHOOK_RETRY_SCHEDULE: "30s, 2M 1h,7d" })).webhookRetryScheduleMs).toEqual([30_000, 120_000, 3_600_000, 7 * 86_400_000]);
    for (const schedule of ["5", "5s,1w", "8d", "1.5h", "-5s", "5s;5m", ",", Array.from({ length: 31 }, () => "1s").join(",")]) {
      expect(() => parseConfig(withKey({ WEBHOOK_RETRY_SCHEDULE: schedule })), schedule).toThrow("WEBHOOK_RETRY_SCHEDULE must list");
    }
  });

  it("sends events to private addresses only with OUTBOUND_ALLOW_PRIVATE=true, and to a loopback host in development", () => {
    expect(parseConfig(withKey({ OUTBOUND_ALLOW_PRIVATE: "true" })).outbound).toEqual({ allowPrivate: true, allowLoopback: false });
    expect(parseConfig(withKey({ NODE_ENV: "development" })).outbound).toEqual({ allowPrivate: false, allowLoopback: true });
    expect(() => parseConfig(withKey({ OUTBOUND_ALLOW_PRIVATE: "yes" }))).toThrow("OUTBOUND_ALLOW_PRIVATE");
  });

  it("reads the OpenID Connect provider: the issuer, the client, the button's name (the issuer's host by default) and the scopes (openid email profile by default)", () => {
    const provider = { OIDC_ISSUER: "https://login.example.com/realms/acme", OIDC_CLIENT_ID: "initlink", OIDC_CLIENT_SECRET: "s3cret" };
    expect(parseConfig(withKey(provider)).oidc).toEqual({
      issuer: "https://login.example.com/realms/acme",
      clientId: "initlink",
      clientSecret: "s3cret",
      displayName: "login.example.com",
      scopes: ["openid", "email", "profile"],
    });
    expect(parseConfig(withKey({ ...provider, OIDC_DISPLAY_NAME: " Acme SSO ", OIDC_SCOPES: " openid  email groups openid " })).oidc).toMatchObject({ displayName: "Acme SSO", scopes: ["openid", "email", "groups"] });
    // A provider on this machine may be plain http (a developer's, the tests').
    for (const issuer of ["http://localhost:8080/realms/dev", "http://127.0.0.1:4000", "http://[::1]:4000"]) expect(parseConfig(withKey({ ...provider, OIDC_ISSUER: issuer })).oidc?.issuer).toBe(issuer);
  });

  it.each([
    [{ OIDC_ISSUER: "http://login.example.com" }, "OIDC_ISSUER must use https"],
    [{ OIDC_ISSUER: "not a url" }, "OIDC_ISSUER must be an absolute URL"],
    [{ OIDC_ISSUER: "https://login.example.com/?tenant=a" }, "OIDC_ISSUER must be the issuer's URL only"],
    [{ OIDC_ISSUER: "https://user:pw@login.example.com" }, "OIDC_ISSUER must be the issuer's URL only"],
    [{ OIDC_CLIENT_ID: "" }, "OIDC_ISSUER needs OIDC_CLIENT_ID"],
    [{ OIDC_CLIENT_SECRET: "" }, "OIDC_ISSUER needs OIDC_CLIENT_SECRET"],
    [{ OIDC_SCOPES: "email profile" }, "OIDC_SCOPES must list scopes separated by spaces, openid among them"],
    [{ OIDC_SCOPES: 'openid "email"' }, "OIDC_SCOPES must list scopes"],
    [{ OIDC_DISPLAY_NAME: "x".repeat(61) }, "OIDC_DISPLAY_NAME must be at most 60 characters"],
    [{ OIDC_CLIENT_ID: "bad\u0007id" }, "OIDC_CLIENT_ID must be at most 255 characters without control characters"],
  ])("refuses the provider's setting %o", (setting, message) => {
    const provider = { OIDC_ISSUER: "https://login.example.com", OIDC_CLIENT_ID: "initlink", OIDC_CLIENT_SECRET: "s3cret" };
    expect(() => parseConfig(withKey({ ...provider, ...setting }))).toThrow(message);
  });

  it("reads who may sign up and whether passwords are used: SIGN_UP=off closes password sign-up; LOCAL_PASSWORDS=off needs the provider", () => {
    const provider = { OIDC_ISSUER: "https://login.example.com", OIDC_CLIENT_ID: "initlink", OIDC_CLIENT_SECRET: "s3cret" };
    expect(parseConfig(withKey({ SIGN_UP: "off" })).accounts).toEqual({ selfSignUp: false, inviteSignUp: false, localPasswords: true });
    expect(parseConfig(withKey({ ...provider, SIGN_UP: "OFF", LOCAL_PASSWORDS: "off" })).accounts).toEqual({ selfSignUp: false, inviteSignUp: false, localPasswords: false });
    expect(() => parseConfig(withKey({ LOCAL_PASSWORDS: "off" }))).toThrow("LOCAL_PASSWORDS=off needs OIDC_ISSUER");
    expect(parseConfig(withKey({ SIGN_UP: "invite" })).accounts).toEqual({ selfSignUp: false, inviteSignUp: true, localPasswords: true });
    expect(() => parseConfig(withKey({ SIGN_UP: "closed" }))).toThrow("SIGN_UP must be open or invite or off");
    expect(() => parseConfig(withKey({ LOCAL_PASSWORDS: "no" }))).toThrow("LOCAL_PASSWORDS must be on or off");
  });

  it("reads the platform's name and logo: a small SVG, PNG or WebP file, as a data: URL", () => {
    const folder = mkdtempSync(path.join(tmpdir(), "initlink-logo-"));
    const logo = path.join(folder, "logo.svg");
    writeFileSync(logo, '<svg xmlns="http://www.w3.org/2000/svg"/>');
    expect(parseConfig(withKey({ APP_NAME: "Acme Login", APP_LOGO: logo })).brand).toEqual({
      name: "Acme Login",
      logo: `data:image/svg+xml;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString("base64")}`,
    });
    const big = path.join(folder, "big.png");
    writeFileSync(big, Buffer.alloc(33 * 1024));
    for (const file of [path.join(folder, "missing.svg"), path.join(folder, "logo.gif"), big]) {
      expect(() => parseConfig(withKey({ APP_LOGO: file }))).toThrow("APP_LOGO must be a readable .svg, .png or .webp file");
    }
    expect(() => parseConfig(withKey({ APP_NAME: "x".repeat(41) }))).toThrow("APP_NAME must be at most 40 characters");
  });

  it("reads the mail server: SMTP_URL needs EMAIL_FROM, and EMAIL_FROM and EMAIL_VERIFICATION=required need SMTP_URL", () => {
    expect(parseConfig(withKey({ SMTP_URL: "smtp://user:p%40ss@mail.example.com:587", EMAIL_FROM: "initlink <login@example.com>" })).email).toEqual({
      smtpUrl: "smtp://user:p%40ss@mail.example.com:587",
      from: "initlink <login@example.com>",
      verificationRequired: false,
    });
    expect(parseConfig(withKey({ SMTP_URL: "smtps://mail.example.com", EMAIL_FROM: "login@example.com", EMAIL_VERIFICATION: "required" })).email?.verificationRequired).toBe(true);
    expect(() => parseConfig(withKey({ SMTP_URL: "smtp://mail.example.com" }))).toThrow("SMTP_URL needs EMAIL_FROM");
    expect(() => parseConfig(withKey({ EMAIL_FROM: "login@example.com" }))).toThrow("EMAIL_FROM set without SMTP_URL");
    expect(() => parseConfig(withKey({ EMAIL_VERIFICATION: "required" }))).toThrow("EMAIL_VERIFICATION=required set without SMTP_URL");
    for (const url of ["http://mail.example.com", "smtp://", "mail.example.com:587"]) {
      expect(() => parseConfig(withKey({ SMTP_URL: url, EMAIL_FROM: "login@example.com" }))).toThrow("SMTP_URL must be an smtp:// or smtps:// URL");
    }
    for (const from of ["initlink", "a@b\nBcc: c@d", "<login@example.com", "x".repeat(200) + "@example.com"]) {
      expect(() => parseConfig(withKey({ SMTP_URL: "smtp://mail.example.com", EMAIL_FROM: from }))).toThrow("EMAIL_FROM must be an address");
    }
  });

  it("refuses the provider's other settings without OIDC_ISSUER", () => {
    expect(() => parseConfig(withKey({ OIDC_CLIENT_ID: "initlink", OIDC_SCOPES: "openid" }))).toThrow("OIDC_CLIENT_ID, OIDC_SCOPES set without OIDC_ISSUER");
  });

  it("reads OAUTH_CLIENT_IDS as a list of client_ids, empty meaning any", () => {
    expect(parseConfig({ MASTER_KEY, OAUTH_CLIENT_IDS: " @acme/cli, Acme CLI ,,other " }).oauthClientIds).toEqual(["@acme/cli", "Acme CLI", "other"]);
    expect(parseConfig({ MASTER_KEY, OAUTH_CLIENT_IDS: " , " }).oauthClientIds).toBeNull();
    expect(() => parseConfig({ MASTER_KEY, OAUTH_CLIENT_IDS: "ok,bad\u0007one" })).toThrow("OAUTH_CLIENT_IDS must list client_ids");
    expect(() => parseConfig({ MASTER_KEY, OAUTH_CLIENT_IDS: "x".repeat(201) })).toThrow("OAUTH_CLIENT_IDS must list client_ids");
  });

  // The test suites' shortcuts (docs/testing.md) can never reach a server: `next start`,
  // npm start and server.mjs run with NODE_ENV=production.
  it("refuses the test-only settings unless NODE_ENV=test", () => {
    const testOnly = { TEST_PASSWORD_COST: "low", TEST_PROJECT_KEYS_FILE: ".cache/test-keys/rsa-4096.json" };
    for (const NODE_ENV of ["production", "development", ""]) {
      expect(() => parseConfig(withKey({ ...testOnly, NODE_ENV }))).toThrow(
        "TEST_PASSWORD_COST=low and TEST_PROJECT_KEYS_FILE: for the test suites only, refused unless NODE_ENV=test",
      );
      expect(() => parseConfig(withKey({ TEST_PASSWORD_COST: "low", NODE_ENV }))).toThrow("TEST_PASSWORD_COST=low: for the test suites only");
    }
    const parsed = parseConfig(withKey({ ...testOnly, NODE_ENV: "test" }));
    expect(parsed.passwordCost).toBe("low");
    expect(parsed.projectKeys.testKeysFile).toBe(".cache/test-keys/rsa-4096.json");
    expect(parseConfig(withKey({ TEST_PASSWORD_COST: "full", NODE_ENV: "production" })).passwordCost).toBe("full");
    expect(() => parseConfig(withKey({ TEST_PASSWORD_COST: "cheap", NODE_ENV: "test" }))).toThrow("TEST_PASSWORD_COST must be full or low");
  });

  // The metrics' bearer must be one a scraper can send as a Bearer credential, and long enough not to guess.
  it("takes METRICS_TOKEN as given, trimmed", () => {
    const token = "a".repeat(16) + "-._~+/" + "0123456789";
    expect(parseConfig(withKey({ METRICS_TOKEN: ` ${token} ` })).metricsToken).toBe(token);
    expect(parseConfig(withKey({ METRICS_TOKEN: "" })).metricsToken).toBeNull();
  });

  // X-Forwarded-For is believed only from the proxies named.
  it("takes TRUSTED_PROXIES as addresses and CIDR ranges, and refuses anything else", () => {
    expect(parseConfig(withKey({ TRUSTED_PROXIES: " 10.0.0.2, 192.168.0.0/16 2001:DB8::/32 " })).trustedProxies).toEqual({
      ranges: ["10.0.0.2/32", "192.168.0.0/16", "2001:db8::/32"],
      maxHops: Number.POSITIVE_INFINITY,
    });
    for (const bad of ["10.0.0.0/33", "2001:db8::/129", "proxy.internal", "10.0.0.0/8/1", "10.0.0.0/"]) {
      expect(() => parseConfig(withKey({ TRUSTED_PROXIES: bad }))).toThrow(`TRUSTED_PROXIES must list addresses or CIDR ranges (10.0.0.0/8, 2001:db8::/32), not "${bad}"`);
    }
  });

  // A hop count alone trusted any peer; an existing setting must still start the service, and say what it now means.
  it("keeps TRUST_PROXY_HOPS working for loopback and private proxies only, with a warning", () => {
    expect(parseConfig(withKey({ TRUST_PROXY_HOPS: "1" })).trustedProxies).toEqual({ ranges: LEGACY_PROXY_RANGES, maxHops: 1 });
    expect(configWarnings(withKey({ TRUST_PROXY_HOPS: "1" }))).toEqual([expect.stringContaining("TRUST_PROXY_HOPS alone now believes X-Forwarded-For only from loopback and private addresses")]);
    expect(parseConfig(withKey({ TRUST_PROXY_HOPS: "2", TRUSTED_PROXIES: "10.0.0.2" })).trustedProxies).toEqual({ ranges: ["10.0.0.2/32"], maxHops: Number.POSITIVE_INFINITY });
    expect(configWarnings(withKey({ TRUST_PROXY_HOPS: "2", TRUSTED_PROXIES: "10.0.0.2" }))).toEqual([expect.stringContaining("TRUST_PROXY_HOPS is ignored")]);
    expect(configWarnings(withKey({ TRUSTED_PROXIES: "10.0.0.2" }))).toEqual([]);
  });

  // The operator sets the lifetimes a person may choose; the longest is the maximum.
  it("takes ACCESS_LIFETIME_CHOICES as hours and days, shortest first, and refuses anything else", () => {
    const H = 3_600_000;
    expect(parseConfig(withKey({ ACCESS_LIFETIME_CHOICES: "30d, 1H 1d,1h" })).accessLifetimes).toEqual({
      choices: [
        { label: "1h", ms: H },
        { label: "1d", ms: 24 * H },
        { label: "30d", ms: 720 * H },
      ],
      // ACCESS_TOKEN_LIFETIME_DAYS (90) is not among them: the longest is preselected.
      preselected: { label: "30d", ms: 720 * H },
    });
    expect(parseConfig(withKey({ ACCESS_LIFETIME_CHOICES: "1d,7d", ACCESS_TOKEN_LIFETIME_DAYS: "1" })).accessLifetimes.preselected).toEqual({ label: "1d", ms: 24 * H });
    // Without the list: the shorter of 1h, 1d, 30d, then ACCESS_TOKEN_LIFETIME_DAYS, as before.
    expect(parseConfig(withKey({ ACCESS_TOKEN_LIFETIME_DAYS: "7" })).accessLifetimes.choices.map((choice) => choice.label)).toEqual(["1h", "1d", "7d"]);
    for (const bad of ["0d", "1w", "90", "3651d", "1.5h", "-1d"]) {
      expect(() => parseConfig(withKey({ ACCESS_LIFETIME_CHOICES: bad }))).toThrow(`ACCESS_LIFETIME_CHOICES must list lifetimes such as 1h,1d,30d,90d (hours or days, at most 3650d), not "${bad}"`);
    }
    expect(() => parseConfig(withKey({ ACCESS_LIFETIME_CHOICES: "1h,2h,3h,4h,5h,6h,7h,8h,9h" }))).toThrow("ACCESS_LIFETIME_CHOICES must list at most 8 lifetimes");
  });

  it("takes the proximity networks' prefix lengths", () => {
    expect(parseConfig(withKey({ PROXIMITY_IPV4_PREFIX: "16", PROXIMITY_IPV6_PREFIX: "48" })).proximityPrefixes).toEqual({ ipv4: 16, ipv6: 48 });
    expect(() => parseConfig(withKey({ PROXIMITY_IPV4_PREFIX: "33" }))).toThrow("PROXIMITY_IPV4_PREFIX must be a whole number from 0 to 32");
  });

  // The browser-approved link of existing clients is off unless asked for (docs/api.md, Compatibility).
  it("turns the browser-approved link on only when told", () => {
    expect(parseConfig(withKey({ LEGACY_LINK_APPROVAL: "ON", LEGACY_LINK_APPROVAL_SECONDS: "60" })).legacyLinkApproval).toEqual({ enabled: true, lifetimeMs: 60_000 });
    expect(() => parseConfig(withKey({ LEGACY_LINK_APPROVAL: "yes" }))).toThrow("LEGACY_LINK_APPROVAL must be off or on");
    expect(() => parseConfig(withKey({ LEGACY_LINK_APPROVAL_SECONDS: "1" }))).toThrow("LEGACY_LINK_APPROVAL_SECONDS must be a whole number from 5 to 3600");
  });

  it("gives each worker process its share of the cores for key threads", () => {
    const threads = (env: Record<string, string>) => parseConfig(withKey(env)).projectKeys.threads;
    expect(threads({ WEB_CONCURRENCY: "1" })).toBe(availableParallelism());
    expect(threads({ WEB_CONCURRENCY: String(availableParallelism() * 4) })).toBe(1);
    expect(threads({ WEB_CONCURRENCY: "1", PROJECT_KEY_THREADS: "3" })).toBe(3);
  });

  it("gives each worker a V8 heap of 384 MiB unless told otherwise", () => {
    expect(parseConfig(withKey({})).workerHeapMb).toBe(384);
    expect(parseConfig(withKey({ WORKER_HEAP_MB: "1024" })).workerHeapMb).toBe(1024);
  });

  // Each held request keeps its share of the heap, so the bound follows the heap unless it is set:
  // about 12 KiB a parked wait, 19 KiB a parked event stream (server/config.mjs).
  it("bounds the requests held open by the heap, unless WAITING_PER_PROCESS says", () => {
    expect(parseConfig(withKey({ WORKER_HEAP_MB: "1024" })).waitingPerProcess).toBe(57_344);
    expect(parseConfig(withKey({ WORKER_HEAP_MB: "1024" })).streamsPerProcess).toBe(21_504);
    expect(parseConfig(withKey({ WAITING_PER_PROCESS: "50" })).streamsPerProcess).toBe(50);
    expect(parseConfig(withKey({ WORKER_HEAP_MB: "128" })).waitingPerProcess).toBe(100);
    expect(parseConfig(withKey({ WAITING_PER_PROCESS: "50" })).waitingPerProcess).toBe(50);
    expect(() => parseConfig(withKey({ WAITING_PER_PROCESS: "0" }))).toThrow(/WAITING_PER_PROCESS/);
  });

  // Without APP_URL the links a client is handed must open where the server listens.
  it("takes APP_URL from PORT when it is not set", () => {
    expect(parseConfig(withKey({})).appUrl).toBe("http://localhost:3000");
    expect(parseConfig(withKey({ PORT: "3990" })).appUrl).toBe("http://localhost:3990");
  });

  it("normalises APP_URL to its origin", () => {
    expect(parseConfig(withKey({ APP_URL: "https://Initlink.Example/" })).appUrl).toBe("https://initlink.example");
  });

  it.each([
    [{ APP_URL: "initlink.example" }, "APP_URL must be an absolute URL"],
    [{ APP_URL: "ftp://initlink.example" }, "APP_URL must use http or https"],
    [{ APP_URL: "https://initlink.example/app" }, "APP_URL must be an origin only"],
    [{ PORT: "70000" }, "PORT must be a whole number from 1 to 65535"],
    [{ WEB_CONCURRENCY: "two" }, "WEB_CONCURRENCY must be a whole number from 1 to 256"],
    [{ WEB_CONCURRENCY: "0" }, "WEB_CONCURRENCY must be a whole number from 1 to 256"],
    [{ WORKER_HEAP_MB: "32" }, "WORKER_HEAP_MB must be a whole number from 64 to 65536"],
    [{ INIT_INTERVAL_MS: "fast" }, "INIT_INTERVAL_MS must be a whole number"],
    [{ DATABASE_LISTEN_URL: "file:./listen.db" }, "DATABASE_LISTEN_URL must be a postgresql:// URL"],
    [{ INIT_LIFETIME_SECONDS: "1.5" }, "INIT_LIFETIME_SECONDS must be a whole number"],
    [{ INIT_CODE_CHECK: "none" }, "INIT_CODE_CHECK must be confirm or enter"],
    [{ SQLITE_SYNCHRONOUS: "OFF" }, "SQLITE_SYNCHRONOUS must be FULL or NORMAL"],
    [{ DATABASE_URL: "mysql://x" }, "DATABASE_URL must be a file: URL (SQLite, e.g. file:./data/initlink.db) or a postgresql:// URL"],
    [{ DATABASE_POOL_SIZE: "0" }, "DATABASE_POOL_SIZE must be a whole number from 1 to 500"],
    [{ LINK_LIFETIME_DAYS: "0" }, "LINK_LIFETIME_DAYS must be a whole number from 1 to 365"],
    [{ ACTIVITY_RETENTION_DAYS: "0" }, "ACTIVITY_RETENTION_DAYS must be a whole number from 1 to 3650"],
    [{ PROJECT_KEY_THREADS: "0" }, "PROJECT_KEY_THREADS must be a whole number from 1 to 256"],
    [{ PROJECT_KEY_QUEUE_PER_ACCOUNT: "0" }, "PROJECT_KEY_QUEUE_PER_ACCOUNT must be a whole number from 1 to 100"],
    [{ PROJECT_KEY_WAIT_MS: "-1" }, "PROJECT_KEY_WAIT_MS must be a whole number from 0 to 600000"],
    [{ METRICS_TOKEN: "short" }, "METRICS_TOKEN must be 32 to 256 characters"],
    [{ METRICS_TOKEN: "a".repeat(31) + " b" }, "METRICS_TOKEN must be 32 to 256 characters"],
  ])("rejects %o with a clear message", (env, message) => {
    expect(() => parseConfig(withKey(env))).toThrow(ConfigError);
    expect(() => parseConfig(withKey(env))).toThrow(message);
  });

  it.each(["postgresql://initlink@db.internal:5432/initlink", "postgres://u:p@127.0.0.1/initlink?sslmode=require"])("accepts PostgreSQL URLs: %s", (url) => {
    expect(parseConfig(withKey({ DATABASE_URL: url })).databaseUrl).toBe(url);
  });

  it("accepts the master key in base64url too", () => {
    const key = Buffer.alloc(32, 0xfb);
    expect(parseConfig({ MASTER_KEY: key.toString("base64url") }).masterKey).toEqual(key);
  });

  it.each([
    [{}, "MASTER_KEY is not set"],
    [{ MASTER_KEY: Buffer.alloc(16).toString("base64") }, "MASTER_KEY must be 32 bytes"],
    [{ MASTER_KEY: "not base64 at all!" }, "MASTER_KEY must be 32 bytes"],
  ])("refuses a missing or malformed master key: %o", (env, message) => {
    expect(() => parseConfig(env)).toThrow(message);
  });

  it("never puts the master key in its error message", () => {
    const wrong = Buffer.alloc(31, 7).toString("base64");
    expect(() => parseConfig({ MASTER_KEY: wrong })).toThrow(ConfigError);
    try {
      parseConfig({ MASTER_KEY: wrong });
    } catch (error) {
      expect(String(error)).not.toContain(wrong);
    }
  });
});
