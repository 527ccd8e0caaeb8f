// @ts-check
// `npm start`: everything a fresh clone needs before it serves — the dependencies, the Prisma clients, a
// check of the configuration, the database's migrations, a production build when the sources are newer than the last one —
// then the server itself. `npm start -- --dev` serves the development build instead.
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ensureInstalled } from "./install.mjs";
import { runPrisma } from "./prisma.mjs";
import { runTool, say } from "./run.mjs";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const dev = process.argv.includes("--dev");
process.env.NEXT_TELEMETRY_DISABLED = "1";

/** @param {string} reason */
function fail(reason) {
  say(reason, {}, "error");
  process.exit(1);
}

/** @param {string} target @returns {number} newest modification time below target */
function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(target)) {
    if (entry === "generated" || entry === "node_modules") continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

const BUILD_INPUTS = ["app", "lib", "public", "instrumentation.ts", "next.config.mjs", "tsconfig.json", "package-lock.json", "prisma/schema.prisma"];

function buildIsStale() {
  const buildId = path.join(root, ".next", "BUILD_ID");
  if (!existsSync(buildId)) return true;
  const builtAt = statSync(buildId).mtimeMs;
  return BUILD_INPUTS.some((input) => newestMtime(path.join(root, input)) > builtAt);
}

/**
 * Which database, for the migrating line: the SQLite file, or PostgreSQL's host and database (never its credentials).
 * @param {string} databaseUrl @param {"sqlite" | "postgresql" | null} provider
 */
function describeDatabase(databaseUrl, provider) {
  if (provider !== "postgresql") return `SQLite ${databaseUrl.replace(/^file:/, "")}`;
  const url = new URL(databaseUrl);
  return `PostgreSQL ${url.host}${url.pathname}`;
}

/** Applies pending migrations of the provider DATABASE_URL selects. */
async function migrate() {
  // Imported here: zod exists only once ensureInstalled() has run.
  const { databaseProvider, databaseUrlFromEnv } = await import("../server/database-url.mjs");
  const databaseUrl = databaseUrlFromEnv(process.env);
  const provider = databaseProvider(databaseUrl);
  say("migrating the database", { database: describeDatabase(databaseUrl, provider) });
  if (provider === "postgresql") {
    // Imported here: `pg` exists only once ensureInstalled() has run.
    const { migratePostgresql } = await import("../server/migrate-postgresql.mjs");
    try {
      const applied = await migratePostgresql(databaseUrl);
      if (applied.length > 0) say("applied migrations", { migrations: applied });
    } catch (error) {
      fail(`migrating the database failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  } else if (runPrisma(["migrate", "deploy"]) !== 0) {
    fail("migrating the database failed (Prisma's output is above)");
  }
}

ensureInstalled();
// Imported here: zod exists only once ensureInstalled() has run. A bad setting stops npm start
// with its message before the database is migrated.
const { checkEnvironmentOrExit } = await import("../server/check-environment.mjs");
checkEnvironmentOrExit(root);
await migrate();
if (!dev && buildIsStale()) {
  say("building the production build (next build; measured at 50 to 135 s on a 2-core machine, quiet to loaded)");
  const status = runTool(process.execPath, [path.join(root, "node_modules", "next", "dist", "bin", "next"), "build"], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (status !== 0) fail("the production build failed (its output is above)");
}
say(dev ? "starting the development server" : "starting the server");
await import("../server.mjs");
