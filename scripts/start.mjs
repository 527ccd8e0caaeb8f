// @ts-check
// `npm start`: everything a fresh clone needs before it serves — the dependencies, the Prisma clients, a
// check of the configuration, the database's migrations, a production build when the sources are newer than the last one —
// then the server itself. `npm start -- --dev` serves the development build instead.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ensureInstalled } from "./install.mjs";
import { runPrisma } from "./prisma.mjs";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const dev = process.argv.includes("--dev");
process.env.NEXT_TELEMETRY_DISABLED = "1";

/** @param {string} reason */
function fail(reason) {
  console.error(`initlink: ${reason}`);
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

/** Applies pending migrations of the provider DATABASE_URL selects. */
async function migrate() {
  const databaseUrl = process.env.DATABASE_URL?.trim() ?? "";
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    // Imported here: `pg` exists only once ensureInstalled() has run.
    const { migratePostgresql } = await import("../lib/runtime/migrate-postgresql.mjs");
    try {
      await migratePostgresql(databaseUrl, (line) => console.log(JSON.stringify({ level: "info", msg: line })));
    } catch (error) {
      fail(`migrating the database failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  } else if (runPrisma(["migrate", "deploy"]) !== 0) {
    fail("migrating the database failed (see above).");
  }
}

ensureInstalled();
// Imported here: zod exists only once ensureInstalled() has run. A bad setting stops npm start
// with its message before the database is migrated.
const { checkEnvironmentOrExit } = await import("../lib/runtime/check-environment.mjs");
checkEnvironmentOrExit(root);
await migrate();
if (!dev && buildIsStale()) {
  const build = spawnSync(process.execPath, [path.join(root, "node_modules", "next", "dist", "bin", "next"), "build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (build.status !== 0) fail("the production build failed (see above).");
}
await import("../server.mjs");
