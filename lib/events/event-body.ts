import { z } from "zod";
import { eventTypeOfKind, TEST_EVENT_KIND, TEST_EVENT_TYPE } from "./event-types";

// The body of an event (Standard Webhooks: {type, timestamp, data}), made from the fields the
// outbox's trigger copied from the activity event (WebhookMessage.data). The same message makes
// the same body on every attempt, so a receiver may compare a retry with what it has.

const text = z.string().nullable().default(null);

/** The fields the trigger copies (prisma/migrations/*_webhooks): an activity event's, the team resolved from its project. */
const snapshotSchema = z.object({
  event_id: z.string(),
  kind: z.string(),
  account_id: z.string(),
  subject_id: z.string(),
  project_id: text,
  project_name: text,
  team_id: text,
  team_name: text,
  sender: text,
  sender_device: text,
  sender_os: text,
  sender_ip: text,
  observed_ip: text,
  token_name: text,
  iv: text,
  decided_by: text,
  member_email: text,
  member_id: text,
  role: text,
  access_lifetime_seconds: z.number().nullable().default(null),
});

/** What `data` holds for every type but the test event; fields that do not apply to a type are null (docs/events.md). */
export type EventData = {
  /** The activity event's id: the same event in the account's and the team's activity. */
  event_id: string;
  /** What the event is about: the init, link, access token or OAuth login, or the team change's own id. */
  subject_id: string;
  /** The account that acted (or, for an expiry, the account that had opened the request): initlink's stable account id. */
  account_id: string;
  /** That account's email as it was then; null where no person acted. */
  account_email: string | null;
  project: { id: string; name: string | null } | null;
  team: { id: string; name: string | null } | null;
  /** The client as it reported itself at Create Init (reported_ip: the address it said it had). */
  client: { sender: string | null; device: string | null; os: string | null; reported_ip: string | null } | null;
  /** Where the request that made the change came from, where it is recorded: the approving or denying browser, the linking client, the client ending its login. */
  request_ip: string | null;
  /** The access token concerned, by the name it was given. */
  token_name: string | null;
  /** A link's iv. */
  iv: string | null;
  /** A team event's member, and the role given. */
  member: { account_id: string | null; email: string | null } | null;
  role: string | null;
  /** An approval: the access lifetime the person chose. */
  access_lifetime_seconds: number | null;
  /** oauth_login.revoked: "revoked" by its client, or "refresh_reused"; member.removed: "removed" or "left"; otherwise null. */
  reason: string | null;
};

const REASONS: Record<string, string> = { oauth_login_revoked: "revoked", oauth_refresh_reused: "refresh_reused", member_removed: "removed", member_left: "left" };

export type EventBody = { type: string; timestamp: string; data: EventData | { endpoint_id: string } };

/** The JSON body of a message of `kind` that occurred at `occurredAt`, from its copied fields. */
export function eventBody(kind: string, occurredAt: Date, copied: string, endpointId: string): string {
  const timestamp = occurredAt.toISOString();
  if (kind === TEST_EVENT_KIND) return JSON.stringify({ type: TEST_EVENT_TYPE, timestamp, data: { endpoint_id: endpointId } } satisfies EventBody);
  const type = eventTypeOfKind(kind);
  if (type === null) throw new Error(`no event type for the activity kind ${kind}`);
  const event = snapshotSchema.parse(JSON.parse(copied));
  const data: EventData = {
    event_id: event.event_id,
    subject_id: event.subject_id,
    account_id: event.account_id,
    account_email: event.decided_by,
    project: event.project_id === null ? null : { id: event.project_id, name: event.project_name },
    team: event.team_id === null ? null : { id: event.team_id, name: event.team_name },
    client: event.sender === null ? null : { sender: event.sender, device: event.sender_device, os: event.sender_os, reported_ip: event.sender_ip },
    request_ip: event.observed_ip,
    token_name: event.token_name,
    iv: event.iv,
    member: event.member_email === null && event.member_id === null ? null : { account_id: event.member_id, email: event.member_email },
    role: event.role,
    access_lifetime_seconds: event.access_lifetime_seconds,
    reason: REASONS[kind] ?? null,
  };
  return JSON.stringify({ type, timestamp, data } satisfies EventBody);
}
