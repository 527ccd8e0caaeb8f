import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// docs/integrating.md quotes each file of docs/examples/ whole, and tests/e2e/integrating.spec.ts
// runs those files: so the guide's code is the code that was run.

const root = path.resolve(import.meta.dirname, "../../..");
const guide = readFileSync(path.join(root, "docs/integrating.md"), "utf8");
const examples = readdirSync(path.join(root, "docs/examples")).filter((name) => name.endsWith(".ts"));

describe("docs/integrating.md's examples", () => {
  it.each(examples)("quotes docs/examples/%s exactly", (name) => {
    const code = readFileSync(path.join(root, "docs/examples", name), "utf8");
    expect(guide).toContain(`<!-- docs/examples/${name} -->\n\`\`\`ts\n${code}\`\`\``);
  });
});
