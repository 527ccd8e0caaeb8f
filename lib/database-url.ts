import { mkdirSync } from "node:fs";
import path from "node:path";

// Which database DATABASE_URL names. Shared by the app and prisma.config.ts, so it must not
// import anything of the app's.

export const DEFAULT_DATABASE_URL = "file:./data/initlink.db";

export type Env = Record<string, string | undefined>;

export type DatabaseProvider = "sqlite" | "postgresql";

/** `postgresql://` or `postgres://` selects PostgreSQL; a `file:` URL selects SQLite; anything else is refused (null). */
export function databaseProvider(databaseUrl: string): DatabaseProvider | null {
  if (databaseUrl.startsWith("file:")) return "sqlite";
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) return "postgresql";
  return null;
}

export function databaseUrlFromEnv(env: Env): string {
  const value = env.DATABASE_URL?.trim();
  return value ? value : DEFAULT_DATABASE_URL;
}

/** The file path of a `file:` URL, relative paths taken from the working directory. */
export function sqliteFilePath(databaseUrl: string): string {
  if (!databaseUrl.startsWith("file:")) {
    throw new Error(`DATABASE_URL must be a file: URL for SQLite, got "${databaseUrl.split(":")[0]}:…"`);
  }
  return databaseUrl.slice("file:".length);
}

/** SQLite creates the file but not its folder. */
export function ensureSqliteDirectory(file: string): void {
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
}
