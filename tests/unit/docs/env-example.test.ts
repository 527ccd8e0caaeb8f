import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SETTING_NAMES } from "@/server/config.mjs";

// .env.example lists every setting the service reads, no more, and docs/configuration.md
// documents each: a setting added to server/config.mjs without them fails here.

const root = path.resolve(import.meta.dirname, "../../..");
const listed = [...readFileSync(path.join(root, ".env.example"), "utf8").matchAll(/^# ([A-Z][A-Z0-9_]+)=/gm)].map((match) => match[1]);
const documented = [...readFileSync(path.join(root, "docs/configuration.md"), "utf8").matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((match) => match[1]);
// Read apart from envSchema: the listen address by server.mjs, the database by server/database-url.mjs.
const settings = [...SETTING_NAMES.filter((name) => !name.startsWith("TEST_")), "HOSTNAME", "DATABASE_URL"];

describe(".env.example", () => {
  it("lists every setting once, and only settings", () => {
    expect([...listed].sort()).toEqual([...settings].sort());
  });

  it("lists only documented settings", () => {
    for (const name of listed) expect(documented, name).toContain(name);
  });
});
