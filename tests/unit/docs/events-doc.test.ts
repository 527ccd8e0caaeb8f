import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openApiDocument } from "@/lib/api/openapi-document";
import { eventDataSchema } from "@/lib/events/event-body-schema";
import { EVENT_TYPE_NAMES, EVENT_TYPES, TEST_EVENT_TYPE } from "@/lib/events/event-types";

// docs/events.md against the code: its tables name every event type with its activity kinds and
// every field of `data`, and its example body is the reference's, which eventBody() makes.

const guide = readFileSync(path.resolve(import.meta.dirname, "../../../docs/events.md"), "utf8");

/** The first cells of a table's rows whose header's first cell is `first`, without their backquotes. */
function firstColumn(first: string): string[] {
  const table = guide.slice(guide.indexOf(`| ${first} |`)).split("\n\n")[0];
  return table
    .split("\n")
    .slice(2)
    .map((row) => row.split(" | ")[0].replace(/^\| /, "").replaceAll("`", ""));
}

describe("docs/events.md", () => {
  it("names every event type, and the activity kinds each comes from", () => {
    expect(firstColumn("type")).toEqual([...EVENT_TYPE_NAMES, TEST_EVENT_TYPE]);
    for (const type of EVENT_TYPE_NAMES) {
      const row = guide.split("\n").find((line) => line.startsWith(`| \`${type}\` |`)) ?? "";
      expect(row.split(" | ")[2], type).toBe(EVENT_TYPES[type].kinds.map((kind) => `\`${kind}\``).join(", "));
    }
  });

  it("describes every field of data", () => {
    expect(firstColumn("`data` field")).toEqual(Object.keys(eventDataSchema.shape));
  });

  it("shows the reference's example of init.approved, as eventBody() makes it", () => {
    const block = /<!-- example: init\.approved -->\n```json\n([\s\S]*?)\n```/.exec(guide)?.[1] ?? "";
    const webhooks = openApiDocument().webhooks as Record<string, { post: { requestBody: { content: Record<string, { example: unknown }> } } }>;
    expect(JSON.parse(block)).toEqual(webhooks["init.approved"].post.requestBody.content["application/json"].example);
  });
});
