import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from "node:fs";
import path from "node:path";

// Which database DATABASE_URL names. Shared by the app and prisma.config.ts, so it must not
// import anything of the app's.

export { DEFAULT_DATABASE_URL, databaseProvider, databaseUrlFromEnv } from "../../server/database-url.mjs";

export type Env = Record<string, string | undefined>;

/** The file path of a `file:` URL, relative paths taken from the working directory. */
export function sqliteFilePath(databaseUrl: string): string {
  if (!databaseUrl.startsWith("file:")) {
    throw new Error(`DATABASE_URL must be a file: URL for SQLite, got "${databaseUrl.split(":")[0]}:…"`);
  }
  return databaseUrl.slice("file:".length);
}

/** The counters' database (the poll clock, the rate limits), attached beside the main one (lib/database/db.ts). */
export const countersFile = (file: string) => `${file}-counters`;

/** Narrows an existing file to its owner (0600); a missing one is left missing. */
function ownerOnly(file: string): void {
  if (existsSync(file) && (statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
}

/**
 * Makes the database's folder (0700, when this makes it) and files (0600) readable by their
 * owner only, before SQLite opens them: SQLite creates neither the folder nor files it could
 * protect (it follows the umask, usually 0644), and gives each -wal and -shm file the mode of its
 * database. Files already there are narrowed to 0600 too.
 */
export function prepareSqliteFiles(file: string): void {
  const absolute = path.resolve(file);
  mkdirSync(path.dirname(absolute), { recursive: true, mode: 0o700 });
  for (const database of [absolute, countersFile(absolute)]) {
    // The database is data named at run time, not a file of the build to trace.
    closeSync(openSync(/* turbopackIgnore: true */ database, "a", 0o600));
    for (const each of [database, `${database}-wal`, `${database}-shm`]) ownerOnly(each);
  }
}
