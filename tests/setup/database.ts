import { randomUUID } from "node:crypto";
import { copyFileSync } from "node:fs";
import path from "node:path";
import { inject } from "vitest";

// Each test file gets a fresh, migrated SQLite file of its own.
const template = inject("templateDatabase");
const file = path.join(path.dirname(template), `${randomUUID()}.db`);
copyFileSync(template, file);
process.env.DATABASE_URL = `file:${file}`;
