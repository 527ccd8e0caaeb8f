// @ts-check
// Runs the Prisma CLI offline. Prisma 6 checks for its native engines before every command and
// would download them; the project uses the JavaScript schema engine and a driver adapter
// (prisma.config.ts), so placeholder files satisfy the check and nothing is fetched.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync, existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/**
 * @param {string[]} args the Prisma CLI's arguments
 * @param {Record<string, string>} [extraEnv]
 * @returns {number} the CLI's exit status
 */
export function runPrisma(args, extraEnv = {}) {
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
  const result = spawnSync(process.execPath, [path.join(root, "node_modules", "prisma", "build", "index.js"), ...args], {
    cwd: root,
    env,
    stdio: "inherit",
  });
  return result.status ?? 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.exit(runPrisma(process.argv.slice(2)));
}
