// @ts-check
// Installs the dependencies when they are missing or older than package-lock.json, and
// regenerates the Prisma clients when they are older than the data model, so that `npm start`
// and `npm test` work on a fresh clone and after a pull. Uses only Node's own modules.
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { clientsAreStale, generateClients } from "./prisma.mjs";
import { runTool, say } from "./run.mjs";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

export function ensureInstalled() {
  installDependencies();
  if (!clientsAreStale()) return;
  say("generating the Prisma clients");
  if (generateClients() !== 0) {
    say("generating the Prisma clients failed (its output is above)", {}, "error");
    process.exit(1);
  }
}

function installDependencies() {
  const installed = path.join(root, "node_modules", ".package-lock.json");
  const lock = path.join(root, "package-lock.json");
  if (existsSync(installed) && statSync(installed).mtimeMs >= statSync(lock).mtimeMs) return;
  say("installing the dependencies (npm ci; measured at 100 to 210 s on a 2-core machine, quiet to loaded)");
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  if (runTool(npm, ["ci", "--no-audit", "--no-fund"], { cwd: root }) !== 0) {
    say("npm ci failed (its output is above)", {}, "error");
    process.exit(1);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureInstalled();
