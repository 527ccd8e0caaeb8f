import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { runPrisma } from "../../scripts/prisma.mjs";
import { dropDatabases, migrateTemplate, runPrefix } from "./postgresql.mjs";

// Migrates one database with the real migrations; every test file then works on its own copy.
// TEST_POSTGRES_URL (a PostgreSQL server's maintenance database, e.g.
// postgresql://postgres:…@127.0.0.1:5432/postgres) runs the suite on PostgreSQL instead of SQLite.
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const postgresUrl = process.env.TEST_POSTGRES_URL;
  if (postgresUrl) {
    const prefix = runPrefix();
    const template = await migrateTemplate(postgresUrl, prefix);
    project.provide("templateDatabase", { provider: "postgresql", template, serverUrl: postgresUrl, prefix });
    return () => dropDatabases(postgresUrl, prefix);
  }
  // A folder per run, so that runs side by side never delete each other's files.
  const directory = path.resolve(".cache", "test-databases", randomUUID().slice(0, 8));
  const template = path.join(directory, "template.db");
  if (runPrisma(["migrate", "deploy"], { DATABASE_URL: `file:${template}` }) !== 0) {
    throw new Error("migrating the test database failed");
  }
  project.provide("templateDatabase", { provider: "sqlite", template, serverUrl: "", prefix: "" });
  return async () => rmSync(directory, { recursive: true, force: true });
}

declare module "vitest" {
  export interface ProvidedContext {
    templateDatabase: { provider: "sqlite" | "postgresql"; template: string; serverUrl: string; prefix: string };
  }
}
