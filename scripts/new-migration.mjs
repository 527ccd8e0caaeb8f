// @ts-check
// `npm run migration -- <name>`: after editing prisma/schema.prisma, writes the migration from
// the last committed schema to the edited one, for SQLite and for PostgreSQL. The offline CLI
// diffs two schema files (it cannot diff against a live database); for PostgreSQL it still
// opens a connection, so TEST_POSTGRES_URL must name a reachable server.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { POSTGRESQL_SCHEMA, SQLITE_SCHEMA, writePostgresqlSchema } from "./prisma.mjs";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const name = process.argv[2];
const postgresUrl = process.env.TEST_POSTGRES_URL;
if (!name || !/^[a-z0-9_]+$/.test(name) || !postgresUrl) {
  console.error("usage: TEST_POSTGRES_URL=postgresql://… npm run migration -- <name in snake_case>");
  process.exit(1);
}

const scratch = mkdtempSync(path.join(tmpdir(), "initlink-migration-"));
const previous = execFileSync("git", ["show", "HEAD:prisma/schema.prisma"], { cwd: root, encoding: "utf8" });
writeFileSync(path.join(scratch, "sqlite.prisma"), previous);
writeFileSync(path.join(scratch, "postgresql.prisma"), previous.replace('provider = "sqlite"', 'provider = "postgresql"'));
writePostgresqlSchema();

const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
for (const [provider, schema, folder, databaseUrl] of [
  ["sqlite", SQLITE_SCHEMA, path.join(root, "prisma", "migrations"), `file:${path.join(scratch, "scratch.db")}`],
  ["postgresql", POSTGRESQL_SCHEMA, path.join(root, "prisma", "postgresql", "migrations"), postgresUrl],
]) {
  const diff = spawnSync(
    process.execPath,
    [path.join(root, "scripts", "prisma.mjs"), "migrate", "diff", "--from-schema-datamodel", path.join(scratch, `${provider}.prisma`), "--to-schema-datamodel", schema, "--script"],
    { cwd: root, encoding: "utf8", env: { ...process.env, DATABASE_URL: databaseUrl } },
  );
  if (diff.status !== 0) {
    console.error(diff.stderr);
    process.exit(1);
  }
  const directory = path.join(folder, `${stamp}_${name}`);
  mkdirSync(directory, { recursive: true });
  writeFileSync(path.join(directory, "migration.sql"), diff.stdout.replace(/^Loaded Prisma config.*\n/m, ""));
  console.log(`wrote ${path.relative(root, directory)}/migration.sql`);
}
