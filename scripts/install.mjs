// @ts-check
// Installs the dependencies when they are missing or older than package-lock.json, and
// regenerates the Prisma clients when they are older than the data model, so that `npm start`
// and `npm test` work on a fresh clone and after a pull. Uses only Node's own modules.
import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { clientsAreStale, generateClients } from "./prisma.mjs";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

export function ensureInstalled() {
  installDependencies();
  if (clientsAreStale() && generateClients() !== 0) {
    console.error("initlink: generating the Prisma clients failed (see above).");
    process.exit(1);
  }
}

function installDependencies() {
  const installed = path.join(root, "node_modules", ".package-lock.json");
  const lock = path.join(root, "package-lock.json");
  if (existsSync(installed) && statSync(installed).mtimeMs >= statSync(lock).mtimeMs) return;
  console.log("initlink: installing dependencies (npm ci)…");
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const result = spawnSync(npm, ["ci", "--no-audit", "--no-fund"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) {
    console.error("initlink: npm ci failed (see above).");
    process.exit(1);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureInstalled();
