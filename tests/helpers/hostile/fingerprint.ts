import { createHash } from "node:crypto";
import { config } from "@/lib/config";
import { databaseProvider } from "@/lib/database/database-url";
import { directSql, type DirectSql } from "@/lib/database/direct-sql";
import { pollClocks, rateLimitCounters } from "../api";

// A fingerprint of the whole database, to show that a refused request wrote nothing: each
// table's row count and a digest of every row.

export type Fingerprint = Record<string, string>;

// DpopProof is left out: a proof that passes is spent (RFC 9449 §11.1) whatever the operation then
// answers; that a refused proof is not spent is tested in tests/api/oauth/dpop.test.ts.
const FINGERPRINTED = [
  ["Init", "id"],
  ["AuthorizationRequest", "initId"],
  ["User", "id"],
  ["Session", "id"],
  ["Project", "id"],
  ["ProjectKey", "projectId"],
  ["ProjectLink", "id"],
  ["AccessToken", "id"],
  ["SigningKey", "kid"],
  ["LinkApproval", "id"],
  ["ProjectAlias", "id"],
  ["OAuthLogin", "id"],
  ["RefreshToken", "id"],
  ["ActivityEvent", "id"],
  ["Passkey", "id"],
  ["PasskeyApprovals", "userId"],
  ["PasskeyChallenge", "id"],
  ["ResourceServerCredential", "id"],
  ["FederatedIdentity", "id"],
  ["OidcCallback", "id"],
  ["EmailLink", "id"],
  ["OutboxEmail", "id"],
  ["Team", "id"],
  ["TeamInvitation", "id"],
  ["WebhookEndpoint", "id"],
  ["WebhookMessage", "id"],
  ["WebhookAttempt", "id"],
] as const;

type TableName = (typeof FINGERPRINTED)[number][0];

// Reading every row around each of the hostile suites' thousands of requests made the suites
// quadratic in the rows they add (most of their time). So each row's digest is kept here, and a
// row is read again only when a trigger (installed in the test's database on first use) has
// logged a write to it. Each table's digest is the sum of its rows' digests: the same rows give
// the same digest whatever order they were read or written in, and a changed row changes it.
const WRITE_LOG = "_FingerprintWrite";

const rowDigest = (row: unknown) =>
  createHash("sha256")
    .update(JSON.stringify(row, (_key, value: unknown) => (typeof value === "bigint" ? `${value}n` : value)))
    .digest()
    .readBigUInt64BE(0);

/** A count and the rows' digests summed: the same for the same rows in any order. */
const tableDigest = (rowDigests: Iterable<bigint>, count: number) => `${count} rows, sum ${[...rowDigests].reduce((sum, row) => BigInt.asUintN(64, sum + row), 0n).toString(16)}`;

type Digests = Map<TableName, Map<string, bigint>>;
let digests: { sql: DirectSql; rows: Digests } | null = null;

async function installWriteLog(sql: DirectSql): Promise<void> {
  if (databaseProvider(config().databaseUrl) === "postgresql") {
    await sql.run(`CREATE TABLE IF NOT EXISTS "${WRITE_LOG}" ("seq" BIGSERIAL PRIMARY KEY, "tableName" TEXT NOT NULL, "rowKey" TEXT NOT NULL)`, []);
    await sql.run(
      `CREATE OR REPLACE FUNCTION "${WRITE_LOG}Trigger"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
        IF TG_OP <> 'INSERT' THEN INSERT INTO "${WRITE_LOG}" ("tableName", "rowKey") VALUES (TG_TABLE_NAME, to_jsonb(OLD) ->> TG_ARGV[0]); END IF;
        IF TG_OP <> 'DELETE' THEN INSERT INTO "${WRITE_LOG}" ("tableName", "rowKey") VALUES (TG_TABLE_NAME, to_jsonb(NEW) ->> TG_ARGV[0]); END IF;
        RETURN NULL;
      END $$`,
      [],
    );
    for (const [table, key] of FINGERPRINTED) {
      await sql.run(`CREATE OR REPLACE TRIGGER "${WRITE_LOG}_${table}" AFTER INSERT OR UPDATE OR DELETE ON "${table}" FOR EACH ROW EXECUTE FUNCTION "${WRITE_LOG}Trigger"('${key}')`, []);
    }
    return;
  }
  await sql.run(`CREATE TABLE IF NOT EXISTS "${WRITE_LOG}" ("seq" INTEGER PRIMARY KEY AUTOINCREMENT, "tableName" TEXT NOT NULL, "rowKey" TEXT NOT NULL)`, []);
  for (const [table, key] of FINGERPRINTED) {
    const log = (row: "NEW" | "OLD") => `INSERT INTO "${WRITE_LOG}" ("tableName", "rowKey") VALUES ('${table}', ${row}."${key}");`;
    await sql.run(`CREATE TRIGGER IF NOT EXISTS "${WRITE_LOG}_${table}_insert" AFTER INSERT ON "${table}" BEGIN ${log("NEW")} END`, []);
    await sql.run(`CREATE TRIGGER IF NOT EXISTS "${WRITE_LOG}_${table}_update" AFTER UPDATE ON "${table}" BEGIN ${log("OLD")} ${log("NEW")} END`, []);
    await sql.run(`CREATE TRIGGER IF NOT EXISTS "${WRITE_LOG}_${table}_delete" AFTER DELETE ON "${table}" BEGIN ${log("OLD")} END`, []);
  }
}

/** Every row's digest, read in full once; then kept up to date from the write log. */
async function currentDigests(): Promise<Digests> {
  const sql = await directSql();
  if (digests === null || digests.sql !== sql) {
    await installWriteLog(sql);
    const rows: Digests = new Map();
    for (const [table, key] of FINGERPRINTED) {
      const all = await sql.all<Record<string, unknown>>(`SELECT * FROM "${table}"`, []);
      rows.set(table, new Map(all.map((row) => [String(row[key]), rowDigest(row)])));
    }
    digests = { sql, rows };
  }
  // The entries read are deleted by their numbers, not up to the highest: on PostgreSQL a write
  // that commits later may hold a lower number, and is read next time.
  const written = await sql.all<{ seq: number | string; tableName: TableName; rowKey: string }>(`SELECT "seq", "tableName", "rowKey" FROM "${WRITE_LOG}"`, []);
  const keys = new Map<TableName, Set<string>>();
  for (const { tableName, rowKey } of written) keys.set(tableName, (keys.get(tableName) ?? new Set()).add(rowKey));
  for (const [table, key] of FINGERPRINTED) {
    for (const rowKey of keys.get(table) ?? []) {
      const row = await sql.one<Record<string, unknown>>(`SELECT * FROM "${table}" WHERE "${key}" = ?`, [rowKey]);
      if (row === undefined) digests.rows.get(table)!.delete(rowKey);
      else digests.rows.get(table)!.set(rowKey, rowDigest(row));
    }
  }
  for (let at = 0; at < written.length; at += 500) {
    const batch = written.slice(at, at + 500).map((entry) => Number(entry.seq));
    await sql.run(`DELETE FROM "${WRITE_LOG}" WHERE "seq" IN (${batch.map(() => "?").join(", ")})`, batch);
  }
  return digests.rows;
}

const digest = (rows: unknown[]) => tableDigest(rows.map(rowDigest), rows.length);

/** Forgets the kept digests: the next fingerprint reads every row (its test compares the two ways). */
export function forgetRowDigests(): void {
  digests = null;
}

/** A resource-server credential's projects: few rows, with no key of one column, so read whole. */
async function resourceServerScopes(): Promise<unknown[]> {
  const sql = await directSql();
  return sql.all(`SELECT * FROM "ResourceServerProject" ORDER BY "credentialId", "projectId"`, []);
}

/** Teams' members: few rows, keyed by team and account together, so read whole as well. */
async function teamMembers(): Promise<unknown[]> {
  const sql = await directSql();
  return sql.all(`SELECT * FROM "TeamMember" ORDER BY "teamId", "userId"`, []);
}

/** Webhook endpoints' event types: keyed by endpoint and kind together, so read whole as well. */
async function webhookSubscriptions(): Promise<unknown[]> {
  const sql = await directSql();
  return sql.all(`SELECT * FROM "WebhookSubscription" ORDER BY "endpointId", "kind"`, []);
}

export async function databaseFingerprint(): Promise<Fingerprint> {
  const [initPollClock, rateLimit, scopes, members, subscriptions, rows] = await Promise.all([
    pollClocks(),
    rateLimitCounters(),
    resourceServerScopes(),
    teamMembers(),
    webhookSubscriptions(),
    currentDigests(),
  ]);
  const fingerprint: Fingerprint = {
    InitPollClock: digest(initPollClock),
    RateLimit: digest(rateLimit),
    ResourceServerProject: digest(scopes),
    TeamMember: digest(members),
    WebhookSubscription: digest(subscriptions),
  };
  for (const [table] of FINGERPRINTED) fingerprint[table] = tableDigest(rows.get(table)!.values(), rows.get(table)!.size);
  return fingerprint;
}

/** The tables whose fingerprints differ, leaving out `ignored`. */
export function changedTables(before: Fingerprint, after: Fingerprint, ignored: readonly string[] = []): string[] {
  return Object.keys({ ...before, ...after }).filter((table) => !ignored.includes(table) && before[table] !== after[table]);
}
