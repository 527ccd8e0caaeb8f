import { randomUUID } from "node:crypto";
import { copyFileSync } from "node:fs";
import path from "node:path";
import { inject } from "vitest";
import { copyTemplate } from "./postgresql.mjs";

// Each test file gets a fresh, migrated database of its own: a copy of the template.
const { provider, template, serverUrl, prefix } = inject("templateDatabase");
if (provider === "postgresql") {
  process.env.DATABASE_URL = await copyTemplate(serverUrl, template, prefix);
} else {
  const file = path.join(path.dirname(template), `${randomUUID()}.db`);
  copyFileSync(template, file);
  process.env.DATABASE_URL = `file:${file}`;
}
