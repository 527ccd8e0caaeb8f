import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { databaseProvider, databaseUrlFromEnv, prepareSqliteFiles, sqliteFilePath } from "./lib/database/database-url";

// The schema's datasource reads DATABASE_URL; give it the same default the app uses.
const databaseUrl = databaseUrlFromEnv(process.env);
process.env.DATABASE_URL = databaseUrl;
const postgresql = databaseProvider(databaseUrl) === "postgresql";

// The CLI runs migrations through the same driver adapter as the app, with Prisma's JavaScript
// schema engine: nothing is downloaded, so a fresh clone migrates offline. DATABASE_URL picks
// the provider: its schema (PostgreSQL's is written from SQLite's by scripts/prisma.mjs) and
// its own migrations.
const folder = postgresql ? path.join("prisma", "postgresql") : "prisma";
export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join(folder, "schema.prisma"),
  migrations: { path: path.join(folder, "migrations") },
  adapter: async () => {
    if (postgresql) return new PrismaPg({ connectionString: databaseUrl });
    const file = sqliteFilePath(databaseUrl);
    prepareSqliteFiles(file);
    return new PrismaBetterSQLite3({ url: file });
  },
});
