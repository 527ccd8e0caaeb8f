// @ts-check
// Applies prisma/postgresql/migrations to a PostgreSQL database. Prisma 6's offline (JavaScript)
// schema engine cannot migrate PostgreSQL through the pg adapter (prisma/orm#27403: it fails
// reading the catalog's `name` columns), so this does what `prisma migrate deploy` does, in
// Prisma's own `_prisma_migrations` table and format: each migration in order, once, in a
// transaction. A session advisory lock makes instances starting at once apply them one at a time.
import { createHash, randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
export const POSTGRESQL_MIGRATIONS = path.join(root, "prisma", "postgresql", "migrations");
// Any fixed number shared by every instance of the service.
const MIGRATION_LOCK = 7_246_180_415;

const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

/**
 * @param {string} databaseUrl
 * @returns {Promise<string[]>} the migrations applied now (the caller says which)
 */
export async function migratePostgresql(databaseUrl) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
    await client.query(CREATE_MIGRATIONS_TABLE);
    const done = await client.query('SELECT "migration_name", "checksum", "finished_at" FROM "_prisma_migrations" WHERE "rolled_back_at" IS NULL');
    /** @type {Map<string, { checksum: string, finished: boolean }>} */
    const applied = new Map(done.rows.map((row) => [row.migration_name, { checksum: row.checksum, finished: row.finished_at !== null }]));
    const names = readdirSync(POSTGRESQL_MIGRATIONS, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    /** @type {string[]} */
    const appliedNow = [];
    for (const name of names) {
      const script = readFileSync(path.join(POSTGRESQL_MIGRATIONS, name, "migration.sql"), "utf8");
      const checksum = createHash("sha256").update(script).digest("hex");
      const previous = applied.get(name);
      if (previous !== undefined) {
        if (!previous.finished) throw new Error(`migration ${name} started earlier and did not finish: resolve it by hand`);
        if (previous.checksum !== checksum) throw new Error(`migration ${name} was changed after it was applied`);
        continue;
      }
      await client.query("BEGIN");
      try {
        await client.query(script);
        await client.query(
          'INSERT INTO "_prisma_migrations" ("id", "checksum", "finished_at", "migration_name", "started_at", "applied_steps_count") VALUES ($1, $2, now(), $3, now(), 1)',
          [randomUUID(), checksum, name],
        );
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw new Error(`migration ${name} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
      appliedNow.push(name);
    }
    return appliedNow;
  } finally {
    await client.end();
  }
}
