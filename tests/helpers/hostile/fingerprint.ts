import { createHash } from "node:crypto";
import { directSql } from "@/lib/database/direct-sql";
import { pollClocks, rateLimitCounters } from "../api";

// A fingerprint of the whole database, to show that a refused request wrote nothing.

// ---------------------------------------------------------------------------------------------
// Database fingerprint: row count and SHA-256 of every row of every table, in key order.
// ---------------------------------------------------------------------------------------------
function digest(rows: unknown[]): string {
  const json = JSON.stringify(rows, (_key, value: unknown) => (typeof value === "bigint" ? `${value}n` : value));
  return `${rows.length} rows, sha256 ${createHash("sha256").update(json).digest("base64url").slice(0, 22)}`;
}

export type Fingerprint = Record<string, string>;

// Each table in full (SELECT *), read through the database driver (lib/database/direct-sql.ts)
// rather than Prisma's query layer: two fingerprints around each of 2,000 requests read every row
// of tables that grow to thousands of rows, and Prisma's per-row cost made that most of a suite's time.
// DpopProof is left out: a proof that passes is spent (RFC 9449 §11.1) whatever the operation then
// answers; that a refused proof is not spent is tested in tests/api/oauth/dpop.test.ts.
const FINGERPRINTED = [
  ["Init", "id"],
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
] as const;

export async function databaseFingerprint(): Promise<Fingerprint> {
  const sql = await directSql();
  const [initPollClock, rateLimit, ...tables] = await Promise.all([
    pollClocks(),
    rateLimitCounters(),
    ...FINGERPRINTED.map(([table, key]) => sql.all(`SELECT * FROM "${table}" ORDER BY "${key}"`, [])),
  ]);
  const fingerprint: Fingerprint = { InitPollClock: digest(initPollClock), RateLimit: digest(rateLimit) };
  FINGERPRINTED.forEach(([table], at) => (fingerprint[table] = digest(tables[at])));
  return fingerprint;
}

/** The tables whose fingerprints differ, leaving out `ignored`. */
export function changedTables(before: Fingerprint, after: Fingerprint, ignored: readonly string[] = []): string[] {
  return Object.keys({ ...before, ...after }).filter((table) => !ignored.includes(table) && before[table] !== after[table]);
}
