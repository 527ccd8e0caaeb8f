// @ts-check
// The master key for a server started without MASTER_KEY. In production that is an error; in
// development a key is generated once into a git-ignored file and reused on every start.
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import path from "node:path";

export class MissingMasterKeyError extends Error {}

/**
 * MASTER_KEY from the environment, or the development key in `file` (made if absent).
 * The file is written beside and then hard-linked into place, which fails if another process got
 * there first, so servers starting at once all end up with the one key.
 * @param {Record<string, string | undefined>} env the environment as the operator set it
 * @param {string} file
 * @returns {{ key: string, generated: boolean }}
 */
export function resolveMasterKey(env, file) {
  const fromEnv = env.MASTER_KEY?.trim();
  if (fromEnv) return { key: fromEnv, generated: false };
  if (env.NODE_ENV === "production") {
    throw new MissingMasterKeyError(
      "MASTER_KEY must be set when NODE_ENV=production. Generate one with `openssl rand -base64 32`, keep it in your secret store, and see docs/design.md, Key management.",
    );
  }
  // The folder is the default database's too (data/): the owner's alone, like the database (lib/database/database-url.ts).
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const draft = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
  writeFileSync(draft, `${randomBytes(32).toString("base64")}\n`, { mode: 0o600 });
  let generated = true;
  try {
    linkSync(draft, file);
  } catch (error) {
    if (!(error instanceof Error && "code" in error && error.code === "EEXIST")) throw error;
    generated = false;
  } finally {
    rmSync(draft, { force: true });
  }
  return { key: readFileSync(file, "utf8").trim(), generated };
}
