// @ts-check
// Runs the Prisma CLI offline. Prisma 6 checks for its native engines before every command and
// would download them; the project uses the JavaScript schema engine and a driver adapter
// (prisma.config.ts), so placeholder files satisfy the check and nothing is fetched.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { runTool } from "./run.mjs";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

export const SQLITE_SCHEMA = path.join(root, "prisma", "schema.prisma");
export const POSTGRESQL_SCHEMA = path.join(root, "prisma", "postgresql", "schema.prisma");

/**
 * The PostgreSQL copy of the one data model (prisma/schema.prisma): the same models, another
 * provider and client output. Written before every CLI run, so the two cannot drift apart.
 */
export function writePostgresqlSchema() {
  const source = readFileSync(SQLITE_SCHEMA, "utf8");
  const copy = source
    .replace('provider = "sqlite"', 'provider = "postgresql"')
    .replace('output     = "../lib/generated/prisma"', 'output     = "../../lib/generated/prisma-postgresql"');
  if (copy === source || !copy.includes('provider = "postgresql"') || !copy.includes("prisma-postgresql")) {
    throw new Error("prisma/schema.prisma no longer has the provider or output lines writePostgresqlSchema rewrites");
  }
  const header = "// Generated from prisma/schema.prisma by scripts/prisma.mjs: edit that file, not this one.\n";
  mkdirSync(path.dirname(POSTGRESQL_SCHEMA), { recursive: true });
  writeFileSync(POSTGRESQL_SCHEMA, header + copy);
}

/**
 * Runs the Prisma CLI; quiet (the default) shows its output only if it fails. Prisma 6.19 needs
 * the schema's datasource `url` but warns on every command that a driver adapter
 * (prisma.config.ts) ignores it; quiet, that warning is not shown.
 * @param {string[]} args the Prisma CLI's arguments
 * @param {Record<string, string>} [extraEnv]
 * @param {{ quiet?: boolean }} [options]
 * @returns {number} the CLI's exit status
 */
export function runPrisma(args, extraEnv = {}, { quiet = true } = {}) {
  const cacheDir = path.join(root, "node_modules", ".cache", "initlink-prisma");
  mkdirSync(cacheDir, { recursive: true });
  const placeholder = path.join(cacheDir, "engine-placeholder");
  if (!existsSync(placeholder)) writeFileSync(placeholder, "");
  const env = {
    ...process.env,
    PRISMA_QUERY_ENGINE_LIBRARY: placeholder,
    PRISMA_SCHEMA_ENGINE_BINARY: placeholder,
    PRISMA_HIDE_UPDATE_MESSAGE: "1",
    CHECKPOINT_DISABLE: "1",
    ...extraEnv,
  };
  writePostgresqlSchema();
  return runTool(process.execPath, [path.join(root, "node_modules", "prisma", "build", "index.js"), ...args], { cwd: root, env, quiet });
}

export const GENERATED_CLIENTS = ["prisma", "prisma-postgresql"].map((name) => path.join(root, "lib", "generated", name, "client.ts"));

/**
 * True when a generated client is missing or older than the data model, as after a pull that
 * changed the schema: the build must not compile against the previous model's client.
 * @param {string} [schema] @param {string[]} [clients]
 */
export function clientsAreStale(schema = SQLITE_SCHEMA, clients = GENERATED_CLIENTS) {
  const modelChangedAt = statSync(schema).mtimeMs;
  return clients.some((client) => !existsSync(client) || statSync(client).mtimeMs < modelChangedAt);
}

/** Both providers' clients: the app picks one by DATABASE_URL at run time. */
export function generateClients() {
  return runPrisma(["generate", "--schema", SQLITE_SCHEMA]) || runPrisma(["generate", "--schema", POSTGRESQL_SCHEMA]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  // `npm run prisma -- <args>`: a person asked, so the CLI says everything.
  process.exit(args.length === 1 && args[0] === "generate" ? generateClients() : runPrisma(args, {}, { quiet: false }));
}
