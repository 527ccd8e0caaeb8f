import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { databaseUrlFromEnv, ensureSqliteDirectory, sqliteFilePath } from "./lib/database-url";

// The schema's datasource reads DATABASE_URL; give it the same default the app uses.
const databaseUrl = databaseUrlFromEnv(process.env);
process.env.DATABASE_URL = databaseUrl;

// The CLI runs migrations through the same driver adapter as the app, with Prisma's JavaScript
// schema engine: nothing is downloaded, so a fresh clone migrates offline.
export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "schema.prisma"),
  migrations: { path: path.join("prisma", "migrations") },
  adapter: async () => {
    const file = sqliteFilePath(databaseUrl);
    ensureSqliteDirectory(file);
    return new PrismaBetterSQLite3({ url: file });
  },
});
