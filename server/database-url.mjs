// @ts-check
// Which database DATABASE_URL names, in plain JavaScript for server/config.mjs;
// lib/database/database-url.ts re-exports it for the app and prisma.config.ts.

export const DEFAULT_DATABASE_URL = "file:./data/initlink.db";

/**
 * `postgresql://` or `postgres://` selects PostgreSQL; a `file:` URL selects SQLite; anything else is refused (null).
 * @param {string} databaseUrl
 * @returns {"sqlite" | "postgresql" | null}
 */
export function databaseProvider(databaseUrl) {
  if (databaseUrl.startsWith("file:")) return "sqlite";
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) return "postgresql";
  return null;
}

/** @param {Record<string, string | undefined>} env */
export function databaseUrlFromEnv(env) {
  const value = env.DATABASE_URL?.trim();
  return value ? value : DEFAULT_DATABASE_URL;
}
