import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// docs/integrating.md and docs/events.md quote files of docs/examples/ whole, each under a comment
// naming it, and tests run those files (tests/e2e/integrating.spec.ts, tests/api/docs/
// events-receiver.test.ts): so the guides' code is the code that was run.

const root = path.resolve(import.meta.dirname, "../../..");
const guides = Object.fromEntries(["docs/integrating.md", "docs/events.md"].map((guide) => [guide, readFileSync(path.join(root, guide), "utf8")]));
const examples = readdirSync(path.join(root, "docs/examples")).filter((name) => name.endsWith(".ts"));

describe("the guides' examples", () => {
  it.each(examples)("docs/examples/%s is quoted exactly, by one guide", (name) => {
    const marker = `<!-- docs/examples/${name} -->`;
    const quoting = Object.keys(guides).filter((guide) => guides[guide].includes(marker));
    expect(quoting).toHaveLength(1);
    const code = readFileSync(path.join(root, "docs/examples", name), "utf8");
    expect(guides[quoting[0]]).toContain(`${marker}\n\`\`\`ts\n${code}\`\`\``);
  });

  it("quote no file that is not one of them", () => {
    const quoted = Object.values(guides).flatMap((text) => [...text.matchAll(/<!-- docs\/examples\/([^ ]+) -->/g)].map((match) => match[1]));
    expect(quoted.filter((name) => !examples.includes(name))).toEqual([]);
  });
});
