import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { POST as createInitRoute } from "@/app/api/init/route";
import {
  assertHostile,
  clientHeadersArb,
  contentTypeArb,
  jsonBodyArb,
  NUM_RUNS,
  PROPERTY_TIMEOUT_MS,
  SEED,
  sendToRoute,
} from "../../helpers/hostile";

// Hostile input, property-based, with a low Create Init limit: the same properties
// while most requests are refused with 429 rate_limited. docs/configuration.md: "no other rejected request
// changes the database" (only failed sign-ins write). vitest.config.ts's limits are high so that
// the other suites never meet one; this file lowers Create Init's before the configuration is
// first read (lib/config.ts parses it once, on first use, in this file's own process).
process.env.CREATE_INIT_PER_MINUTE = "5";

const validBody = fc.record(
  { sender: fc.string({ minLength: 1, maxLength: 40 }).filter((sender) => sender.trim() !== ""), sender_device: fc.option(fc.string({ maxLength: 40 })) },
  { requiredKeys: ["sender"] },
);

const input = fc.record({
  body: fc.oneof({ arbitrary: validBody.map((value) => ({ kind: "text" as const, text: JSON.stringify(value) })), weight: 4 }, { arbitrary: jsonBodyArb(validBody), weight: 1 }),
  contentType: fc.oneof({ arbitrary: fc.constant("application/json"), weight: 4 }, { arbitrary: contentTypeArb(), weight: 1 }),
  headers: clientHeadersArb(),
});

describe("hostile input under a low limit: POST /api/init with CREATE_INIT_PER_MINUTE=5", () => {
  it(
    `answers ${NUM_RUNS} generated requests (seed ${SEED}) as documented, and a refusal (429 included) writes nothing`,
    async () => {
      const answered = new Map<number, number>();
      await assertHostile("POST /api/init", input, async ({ body, contentType, headers }) => {
        const sent = await sendToRoute(createInitRoute, { method: "POST", path: "/api/init", params: {}, headers, extra: { "content-type": contentType ?? "" }, body });
        answered.set(sent.response.status, (answered.get(sent.response.status) ?? 0) + 1);
        return sent;
      });
      // The limit was met, and it did not refuse everything: at least five of the six address
      // subjects of the generated peers (IPv6 by /64) had their five inits in a window.
      expect(answered.get(429) ?? 0).toBeGreaterThanOrEqual(NUM_RUNS / 4);
      expect(answered.get(201) ?? 0).toBeGreaterThanOrEqual(5 * 5);
    },
    PROPERTY_TIMEOUT_MS,
  );
});
