import { rmSync } from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { runPrisma } from "../../scripts/prisma.mjs";

// Migrates one database with the real migrations; every test file then works on its own copy.
export default function setup(project: TestProject): void {
  const directory = path.resolve(".cache", "test-databases");
  rmSync(directory, { recursive: true, force: true });
  const template = path.join(directory, "template.db");
  if (runPrisma(["migrate", "deploy"], { DATABASE_URL: `file:${template}` }) !== 0) {
    throw new Error("migrating the test database failed");
  }
  project.provide("templateDatabase", template);
}

declare module "vitest" {
  export interface ProvidedContext {
    templateDatabase: string;
  }
}
