import type { ActivityKind } from "../activity/activity-kinds";

// The event types an endpoint may receive (docs/events.md), each sent for one or more kinds of
// activity event: the activity log is where every change already writes its event in its own
// transaction, and the outbox's trigger copies those (prisma/migrations/*_webhooks).

export const EVENT_TYPES = {
  "init.approved": { kinds: ["init_approved"], summary: "A person approved a client's request into a project." },
  "init.denied": { kinds: ["init_denied"], summary: "A person denied a client's request." },
  "init.expired": { kinds: ["init_expired"], summary: "A request that a person opened expired undecided." },
  "link.created": { kinds: ["link_created"], summary: "A client linked to a project (Create Project Link)." },
  "link.revoked": { kinds: ["link_revoked"], summary: "A link was revoked: by a person, or with a member's removal." },
  "access_token.created": { kinds: ["access_token_created"], summary: "A person made an access token on the settings page." },
  "access_token.revoked": { kinds: ["access_token_revoked"], summary: "An access token was revoked: by its owner, or with a member's removal." },
  "oauth_login.revoked": { kinds: ["oauth_login_revoked", "oauth_refresh_reused"], summary: "A client's OAuth login ended: revoked by the client (RFC 7009), or a used refresh token came back." },
  "approval.reported": { kinds: ["approval_reported"], summary: "A person said an approval was not theirs (\"This wasn't me\"); what it issued is revoked." },
  "member.added": { kinds: ["member_joined"], summary: "A person joined the team through an invitation." },
  "member.removed": { kinds: ["member_removed", "member_left"], summary: "A member was removed from the team, or left it." },
  "member.role_changed": { kinds: ["member_role_changed"], summary: "An owner gave a member another role." },
} as const satisfies Record<string, { kinds: readonly ActivityKind[]; summary: string }>;

export type EventType = keyof typeof EVENT_TYPES;

/** The event sent from an endpoint's page to try it; never from a change. */
export const TEST_EVENT_TYPE = "webhook.test";
export const TEST_EVENT_KIND = "test";

export const EVENT_TYPE_NAMES = Object.keys(EVENT_TYPES) as EventType[];

/** The team events, which only a team's endpoint receives. */
export const TEAM_EVENT_TYPES: readonly EventType[] = ["member.added", "member.removed", "member.role_changed"];

/** A request denied or expired belongs to no project yet: only the deciding (or opening) person's own endpoints receive it. */
export const PERSONAL_EVENT_TYPES: readonly EventType[] = ["init.denied", "init.expired"];

const TYPE_OF_KIND = new Map<string, EventType>(EVENT_TYPE_NAMES.flatMap((type) => EVENT_TYPES[type].kinds.map((kind) => [kind, type] as const)));

/** The event type an activity kind is sent as, or null for a kind no endpoint receives. */
export const eventTypeOfKind = (kind: string): EventType | null => TYPE_OF_KIND.get(kind) ?? null;

/** The activity kinds an endpoint subscribed to `types` receives. */
export const kindsOfTypes = (types: readonly EventType[]): string[] => types.flatMap((type) => [...EVENT_TYPES[type].kinds]);

/** The event types of an endpoint's subscribed kinds, in the order of EVENT_TYPES. */
export const typesOfKinds = (kinds: readonly string[]): EventType[] => EVENT_TYPE_NAMES.filter((type) => EVENT_TYPES[type].kinds.some((kind) => kinds.includes(kind)));
