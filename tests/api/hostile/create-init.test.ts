import fc from "fast-check";
import { describe, it } from "vitest";
import { POST as createInitRoute } from "@/app/api/init/route";
import {
  assertHostile,
  authorizationArb,
  clientHeadersArb,
  contentTypeArb,
  credentialArb,
  declaredLengthArb,
  expectSuccesses,
  headerText,
  HOSTILE_ATOMS,
  hostileTextArb,
  jsonBodyArb,
  jwtShapedArb,
  NUM_RUNS,
  oneBadField,
  PROPERTY_TIMEOUT_MS,
  queryArb,
  SEED,
  sendToRoute,
} from "../../helpers/hostile";

// Hostile input, property-based: generated bodies, content types and headers thrown at
// POST /api/init. Seed, number of runs and the documented answers: tests/helpers/hostile/.

/** A Create Init field: valid, at and past its limit, with controls or bidi overrides, or not a string. */
const fieldValue = (max: number) =>
  fc.oneof(
    { arbitrary: fc.string({ minLength: 1, maxLength: 40 }), weight: 4 },
    { arbitrary: fc.constantFrom(max - 1, max, max + 1).map((length) => "x".repeat(length)), weight: 1 },
    { arbitrary: fc.constantFrom(max, max + 1).map((length) => ` ${"é".repeat(length)} `), weight: 1 },
    { arbitrary: fc.constantFrom(...HOSTILE_ATOMS), weight: 2 },
    { arbitrary: fc.string({ unit: "binary", maxLength: 30 }), weight: 1 },
    { arbitrary: hostileTextArb(), weight: 2 },
    { arbitrary: fc.constantFrom(null, "", "   ", 0, -1, 1.5, true, [], {}, ["@acme/cli"], { toString: "x" }), weight: 2 },
    { arbitrary: fc.jsonValue({ maxDepth: 2 }), weight: 1 },
  );

const ipValue = fc.oneof(
  fc.ipV4(),
  fc.ipV6(),
  fc.constantFrom("::ffff:192.0.2.1", "fe80::1%eth0", "999.1.1.1", "1.2.3", "::", "0.0.0.0", " 192.0.2.1 ", "192.0.2.1\u0000", "localhost", "", null, 3232235521),
  fc.string({ maxLength: 45 }),
);

const VALID_BODY = { sender: "@acme/cli", sender_device: "work laptop", sender_os: "linux", sender_ip: "192.0.2.10" };

const shapedBody = fc.oneof(
  // A valid body with one or two fields made hostile: what reaches the insert.
  oneBadField(VALID_BODY, fc.oneof({ arbitrary: hostileTextArb(), weight: 4 }, { arbitrary: fieldValue(200), weight: 1 })),
  oneBadField(VALID_BODY, hostileTextArb()),
  fc.record(
    { sender: fieldValue(200), sender_device: fieldValue(200), sender_os: fieldValue(100), sender_ip: ipValue, extra: fc.jsonValue({ maxDepth: 2 }) },
    { requiredKeys: [] },
  ),
  // Mostly valid, to reach the insert as well as the refusals.
  fc.record(
    { sender: fc.string({ minLength: 1, maxLength: 50 }), sender_device: fc.option(fc.string({ maxLength: 50 })), sender_ip: fc.option(fc.oneof(fc.ipV4(), fc.ipV6())) },
    { requiredKeys: ["sender"] },
  ),
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
);

/** Inits created (201) of the 1,000 requests, about half the fixed seed's count: a route that refuses everything must fail the property. */
const MIN_CREATED = 50;

const input = fc.record({
  body: jsonBodyArb(shapedBody),
  contentType: contentTypeArb(),
  declaredLength: declaredLengthArb(),
  authorization: authorizationArb(credentialArb(["ilsec_AudKZwucI6wsqZhncOHqAlRHpNFbChlRx9Cx4zXg4jE"], jwtShapedArb(["kid"], ["f0hzLD1VaTUHWk7oIoQhpg"]))),
  origin: fc.option(fc.oneof(fc.constantFrom("https://initlink.test", "https://evil.example", "null"), headerText(30)), { nil: undefined }),
  headers: clientHeadersArb(),
  query: queryArb(),
});

describe("hostile input: POST /api/init", () => {
  it(
    `answers ${NUM_RUNS} generated requests (seed ${SEED}) as documented, and a refusal writes nothing`,
    async () => {
      const answered = await assertHostile("POST /api/init", input, ({ body, contentType, declaredLength, authorization, origin, headers, query }) =>
        sendToRoute(createInitRoute, { method: "POST", path: "/api/init", query, params: {}, headers, extra: { "content-type": contentType, "content-length": declaredLength, authorization, origin }, body }),
      );
      expectSuccesses("POST /api/init", "201, an init created", answered.get(201) ?? 0, MIN_CREATED);
    },
    PROPERTY_TIMEOUT_MS,
  );
});
