import { describe, expect, expectTypeOf, it } from "vitest";
import type { z } from "zod";
import { eventBody, type EventData } from "@/lib/events/event-body";
import { eventBodySchema, eventDataSchema, testEventBodySchema } from "@/lib/events/event-body-schema";
import { EVENT_TYPES, EVENT_TYPE_NAMES, TEST_EVENT_KIND } from "@/lib/events/event-types";

// The schemas the OpenAPI document's webhooks are made from (lib/events/event-body-schema.ts)
// describe exactly what eventBody() sends: the same fields as its EventData type, and every body
// it makes, with every field the trigger copies set or none, parses strictly.

const AT = new Date("2026-11-28T09:41:07.512Z");

const everyField = {
  event_id: "JAKSFYGe4gv4uGr6nXe6xg",
  account_id: "RzBwpCGSDDV5HK8zIFsjAw",
  subject_id: "cnvYT4TXzB755tyM4hyBTg",
  project_id: "cnvYT4TXzB755tyM4hyBTg",
  project_name: "Payments API",
  team_id: "Hev_LMEXpzrjTTibSe_C1w",
  team_name: "Platform",
  sender: "@acme/cli",
  sender_device: "build box",
  sender_os: "Linux",
  sender_ip: "10.0.0.7",
  observed_ip: "198.51.100.23",
  token_name: "@acme/cli on build box",
  iv: "ca6016015b62252325478197a1410504",
  decided_by: "ada@example.com",
  member_email: "grace@example.com",
  member_id: "H8wus1awMSxWiMuufbOYJQ",
  role: "admin",
  access_lifetime_seconds: 2_592_000,
};
const noField = { event_id: "JAKSFYGe4gv4uGr6nXe6xg", account_id: "RzBwpCGSDDV5HK8zIFsjAw", subject_id: "cnvYT4TXzB755tyM4hyBTg" };

describe("the event body's schema", () => {
  it("has the fields of EventData, each of a type EventData allows", () => {
    expectTypeOf<keyof z.infer<typeof eventDataSchema>>().toEqualTypeOf<keyof EventData>();
    expectTypeOf<z.infer<typeof eventDataSchema>>().toExtend<EventData>();
  });

  it.each(EVENT_TYPE_NAMES.flatMap((type) => EVENT_TYPES[type].kinds.map((kind) => [type, kind] as const)))("matches the body of %s (%s)", (type, kind) => {
    for (const fields of [everyField, noField]) {
      const body: unknown = JSON.parse(eventBody(kind, AT, JSON.stringify({ kind, ...fields }), "yk7wWJ2oN3dLHzulKMmDpg"));
      expect(eventBodySchema.parse(body)).toMatchObject({ type, timestamp: AT.toISOString() });
    }
  });

  it("matches the test event's body, and refuses a field it does not describe", () => {
    const body: unknown = JSON.parse(eventBody(TEST_EVENT_KIND, AT, "{}", "yk7wWJ2oN3dLHzulKMmDpg"));
    expect(testEventBodySchema.parse(body)).toEqual({ type: "webhook.test", timestamp: AT.toISOString(), data: { endpoint_id: "yk7wWJ2oN3dLHzulKMmDpg" } });
    const approved = JSON.parse(eventBody("init_approved", AT, JSON.stringify({ kind: "init_approved", ...everyField }), "yk7wWJ2oN3dLHzulKMmDpg")) as { data: object };
    expect(eventBodySchema.safeParse({ ...approved, data: { ...approved.data, extra: 1 } }).success).toBe(false);
  });
});
