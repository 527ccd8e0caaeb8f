import type { z } from "zod";
import { eventBody } from "../events/event-body";
import { eventBodySchema, testEventBodySchema } from "../events/event-body-schema";
import { EVENT_TYPE_NAMES, EVENT_TYPES, TEST_EVENT_KIND, TEST_EVENT_TYPE, type EventType } from "../events/event-types";

// The OpenAPI document's `webhooks` (OpenAPI 3.1): the events initlink POSTs to the endpoints
// people register (docs/events.md), one entry per type. Their examples are made by eventBody(),
// the code that makes every body sent, from the fields the outbox's trigger copies for that type.

type JsonObject = Record<string, unknown>;

/** The components the entries refer to: the bodies' schemas and the signature headers. */
export type WebhookComponents = { schemas: Record<string, JsonObject>; parameters: Record<string, JsonObject> };

const EXAMPLE_TIME = new Date("2026-11-28T09:41:07.512Z");
const EXAMPLE_ENDPOINT_ID = "yk7wWJ2oN3dLHzulKMmDpg";

const ada = { account_id: "RzBwpCGSDDV5HK8zIFsjAw", decided_by: "ada@example.com" };
const project = { project_id: "cnvYT4TXzB755tyM4hyBTg", project_name: "Payments API" };
const client = { sender: "@acme/cli", sender_device: "build box", sender_os: "Linux", sender_ip: "10.0.0.7" };
const team = { team_id: "Hev_LMEXpzrjTTibSe_C1w", team_name: "Platform" };
const grace = { member_id: "H8wus1awMSxWiMuufbOYJQ", member_email: "grace@example.com" };
const link = { subject_id: "s_KrsK3QhEPK8qWYLZRmAw", token_name: "@acme/cli on build box", iv: "ca6016015b62252325478197a1410504" };

/** Per type, the fields its activity event records (lib/activity/record-activity.ts, lib/teams/), as the trigger copies them. */
const EXAMPLE_FIELDS: Record<EventType, Record<string, string | number>> = {
  "init.approved": { event_id: "JAKSFYGe4gv4uGr6nXe6xg", subject_id: project.project_id, ...ada, ...project, ...client, observed_ip: "198.51.100.23", access_lifetime_seconds: 2_592_000 },
  "init.denied": { event_id: "uBONF1l5sEjIJ2rLb_ro5w", subject_id: "RxwTmpYnZhaFpvMJI9dgXA", ...ada, ...client, observed_ip: "198.51.100.23" },
  "init.expired": { event_id: "Tq3vYb8nC1xW5rK0mJ7pLg", subject_id: "M2hF9dKs4QeZ0uV6wYb1Rn", account_id: ada.account_id, ...client, observed_ip: "203.0.113.5" },
  "link.created": { event_id: "_R4N765uVH2XLVdxvdoyvw", ...link, account_id: ada.account_id, ...project, ...client, observed_ip: "203.0.113.5" },
  "link.revoked": { event_id: "JSDnH73VbzPnJ_7XfYFFcQ", ...link, ...ada, ...project },
  "access_token.created": { event_id: "e50rY4K1cCRmBz6snr26BA", subject_id: "kSgb85Qh_KqPOK-9RNYBnw", ...ada, ...project, token_name: "deploy bot" },
  "access_token.revoked": { event_id: "ynvW-H83RIUsTV1RUHQIjw", subject_id: "kSgb85Qh_KqPOK-9RNYBnw", ...ada, ...project, token_name: "deploy bot" },
  "oauth_login.revoked": {
    event_id: "P7cXn2LwQ9sV4bK1hZ6tRg",
    subject_id: "Zb1QhN6y0mVtLr2XwKe8aA",
    account_id: ada.account_id,
    ...project,
    sender: "@acme/cli",
    observed_ip: "203.0.113.5",
    token_name: "@acme/cli on build box",
  },
  "approval.reported": { event_id: "GUFuDlrLx3VWnuwQC86SVw", subject_id: project.project_id, ...ada, ...project, ...client, observed_ip: "198.51.100.23" },
  "member.added": { event_id: "b8Yk2RqT5wN0zX3cV7mL1A", subject_id: "qL0f3sB9kZtW1cYp7mNa2g", account_id: grace.member_id, decided_by: grace.member_email, ...team, ...grace, role: "member" },
  "member.removed": { event_id: "ytCqbzWJasZ5LXrhvhGelQ", subject_id: "S4EGLyAI4ntr-TZlb5NZ3A", ...ada, ...team, ...grace },
  "member.role_changed": { event_id: "J8th7J8xlaBurWMKSLGNig", subject_id: "wOeqv3M-vyimDzDm0yzW7w", ...ada, ...team, ...grace, role: "admin" },
};

/** The body initlink sends for `type`, from the example fields: what eventBody() makes of them. */
function exampleBody(type: EventType): unknown {
  const kind = EVENT_TYPES[type].kinds[0];
  return JSON.parse(eventBody(kind, EXAMPLE_TIME, JSON.stringify({ kind, ...EXAMPLE_FIELDS[type] }), EXAMPLE_ENDPOINT_ID));
}

const PARAMETERS: Record<string, JsonObject> = {
  WebhookId: {
    name: "webhook-id",
    in: "header",
    required: true,
    description:
      "The message's id: one per event and endpoint, the same on every attempt and when someone presses Send again. Delivery is at least once: de-duplicate by it.",
    schema: { type: "string" },
    example: "msg_a7d735f59433520c236588bb0c8e90b1",
  },
  WebhookTimestamp: {
    name: "webhook-timestamp",
    in: "header",
    required: true,
    description: "When this attempt was signed, in seconds since the Unix epoch. Refuse one more than 5 minutes from your clock (the standardwebhooks library does).",
    schema: { type: "string", pattern: "^[0-9]+$" },
    example: "1795859467",
  },
  WebhookSignature: {
    name: "webhook-signature",
    in: "header",
    required: true,
    description:
      "Standard Webhooks: `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` (the body exactly as sent), keyed with the endpoint's secret (the base64 after `whsec_`, decoded). During a secret rotation's overlap, one signature per secret, separated by a space: either secret verifies.",
    schema: { type: "string" },
    example: "v1,CMP39k5QD4Ae3uPre9YcFyuE2ya+dsxGp0uhn1HCKrA= v1,9Nq7u0m6d5yqQ1b0o3xZ0f8mVJt7i2sKkqC3YkqQm2c=",
  },
};

const HEADER_REFS = Object.keys(PARAMETERS).map((name) => ({ $ref: `#/components/parameters/${name}` }));

const RESPONSES = {
  "2XX": { description: "Delivered: this message is not sent again, unless someone presses Send again in the endpoint's delivery log." },
  default: {
    description:
      "Any other status (a redirect is not followed), or no answer within 10 s: the attempt failed, and the message is tried again after the next wait of `WEBHOOK_RETRY_SCHEDULE`. The first 1 KiB of the answer's body is kept in the endpoint's delivery log.",
  },
};

function entry(operationId: string, summary: string, description: string, schema: JsonObject, example: unknown): JsonObject {
  return {
    post: {
      operationId,
      summary,
      description,
      tags: ["Events"],
      parameters: HEADER_REFS,
      requestBody: { required: true, content: { "application/json": { schema, example } } },
      responses: RESPONSES,
    },
  };
}

/** The document's `webhooks`, and the components they refer to, with `jsonSchema` turning an answer-side zod schema into JSON Schema. */
export function buildWebhooks(jsonSchema: (schema: z.ZodType) => JsonObject): { webhooks: Record<string, JsonObject>; components: WebhookComponents } {
  const webhooks: Record<string, JsonObject> = {};
  for (const type of EVENT_TYPE_NAMES) {
    const kinds = EVENT_TYPES[type].kinds.map((kind) => `\`${kind}\``).join(" or ");
    webhooks[type] = entry(
      `event.${type}`,
      EVENT_TYPES[type].summary,
      `Made from each activity event of kind ${kinds} (docs/activity.md), for the endpoints subscribed to \`${type}\` (docs/events.md).`,
      { allOf: [{ $ref: "#/components/schemas/EventBody" }, { type: "object", properties: { type: { const: type } }, required: ["type"] }] },
      exampleBody(type),
    );
  }
  webhooks[TEST_EVENT_TYPE] = entry(
    `event.${TEST_EVENT_TYPE}`,
    "A test event, sent from the endpoint's page (Send a test event); never from a change.",
    "Sent to that one endpoint, whatever types it subscribes to, signed and retried as any event.",
    { $ref: "#/components/schemas/TestEventBody" },
    JSON.parse(eventBody(TEST_EVENT_KIND, EXAMPLE_TIME, "{}", EXAMPLE_ENDPOINT_ID)),
  );
  return {
    webhooks,
    components: {
      schemas: {
        EventBody: { ...jsonSchema(eventBodySchema), description: "The body of every event but the test event (Standard Webhooks: `{type, timestamp, data}`)." },
        TestEventBody: { ...jsonSchema(testEventBodySchema), description: "The body of the test event." },
      },
      parameters: PARAMETERS,
    },
  };
}
