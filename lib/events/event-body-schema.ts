import { z } from "zod";
import { EVENT_TYPE_NAMES, TEST_EVENT_TYPE, type EventType } from "./event-types";

// The body of an event as a receiver gets it (docs/events.md), as zod schemas: the OpenAPI
// document's `webhooks` are made from them (lib/api/openapi-webhooks.ts), and the tests check
// that what eventBody() (event-body.ts) makes, and what a receiver is sent, matches them.

const text = (description: string) => z.string().nullable().meta({ description });

export const eventDataSchema = z
  .strictObject({
    event_id: z.string().meta({
      description:
        "The change's id in initlink's activity log. Every endpoint that receives the change gets the same `event_id`, each with a `webhook-id` of its own; a retry or Send again keeps both.",
    }),
    subject_id: z.string().meta({
      description:
        "What the change is about: the init (`init.*`, `approval.reported`), the link (`link.*`), the access token (`access_token.*`), the OAuth login (`oauth_login.revoked`), the invitation (`member.added`) or the membership change (`member.removed`, `member.role_changed`).",
    }),
    account_id: z.string().meta({
      description:
        "The initlink account the change is recorded for (the same `account_id` as in the link bearer and introspection): the person who approved, denied, revoked, reported, joined, removed or changed a role; `link.created`: the owner of the access token that made the link; `init.expired`: the person who had opened the request; `access_token.*`, `oauth_login.revoked`: the token's or login's owner, or the admin whose removal of a member revoked it.",
    }),
    account_email: text("That account's email as it was then; null for `link.created`, `init.expired` and `oauth_login.revoked`."),
    project: z
      .strictObject({ id: z.string(), name: z.string().nullable().meta({ description: "The project's name as it was then." }) })
      .nullable()
      .meta({ description: "The project concerned; null for `init.denied`, `init.expired`, the team events and an access token for all of its owner's projects." }),
    team: z
      .strictObject({ id: z.string(), name: z.string().nullable().meta({ description: "The team's name when the event was written." }) })
      .nullable()
      .meta({ description: "The team whose project it concerns, or the team of a team event; null for a personal project and for changes that concern no team." }),
    client: z
      .strictObject({
        sender: text("The application's name (Create Init's `sender`); `oauth_login.revoked`: the OAuth client's `client_id`."),
        device: text("Create Init's `sender_device`."),
        os: text("Create Init's `sender_os`."),
        reported_ip: text("Create Init's `sender_ip`: the address the client said it had, as it said it (not checked)."),
      })
      .nullable()
      .meta({
        description:
          "The client as it reported itself: for `init.*` and `approval.reported`, and for `link.created` while the init that issued the link's access token is kept; `oauth_login.revoked`: the login's client. Otherwise null.",
      }),
    request_ip: text(
      "The address, as initlink saw it, of the request that made the change: the approving, denying or reporting browser, the linking client, the client that revoked its login or presented a used refresh token; `init.expired`: the address the client's Create Init came from. Otherwise null.",
    ),
    token_name: text("The access token concerned, by its name: `link.*` (the token that made the link), `access_token.*`, `oauth_login.revoked` (the login's latest access token)."),
    iv: text("`link.*`: the link's `iv`."),
    member: z
      .strictObject({ account_id: z.string().nullable(), email: z.string().nullable().meta({ description: "The member's email as it was then." }) })
      .nullable()
      .meta({ description: "The team events: the member who joined, was removed, left or was given another role. Otherwise null." }),
    role: z.enum(["owner", "admin", "member"]).nullable().meta({ description: "`member.added`: the role the invitation gave; `member.role_changed`: the new role. Otherwise null." }),
    access_lifetime_seconds: z.int().nonnegative().nullable().meta({ description: "`init.approved`: the access lifetime the person chose, in seconds. Otherwise null." }),
    reason: z
      .enum(["revoked", "refresh_reused", "removed", "left"])
      .nullable()
      .meta({
        description:
          "`oauth_login.revoked`: `revoked` (the client revoked its refresh token, RFC 7009) or `refresh_reused` (a used refresh token came back, and the login was revoked); `member.removed`: `removed` or `left`. Otherwise null.",
      }),
  })
  .meta({ description: "The change, as initlink's activity log recorded it: every field is always present, null where it does not apply to the type." });

/** The body of every event but the test event. */
export const eventBodySchema = z.strictObject({
  type: z.enum(EVENT_TYPE_NAMES as [EventType, ...EventType[]]).meta({ description: "The event type (docs/events.md)." }),
  timestamp: z.iso.datetime().meta({
    description: "When the change happened (ISO 8601, UTC, in milliseconds): the same on every attempt. The attempt's own time is the `webhook-timestamp` header.",
  }),
  data: eventDataSchema,
});

/** The body of the test event an endpoint's page sends. */
export const testEventBodySchema = z.strictObject({
  type: z.literal(TEST_EVENT_TYPE),
  timestamp: z.iso.datetime().meta({ description: "When the test event was asked for (ISO 8601, UTC, in milliseconds)." }),
  data: z.strictObject({ endpoint_id: z.string().meta({ description: "The endpoint it was sent to." }) }),
});
