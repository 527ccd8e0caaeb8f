import type { Config } from "../config";
import { activityKind } from "../activity/record-activity";
import { db, statementsInOneTransaction, type Database } from "../database/db";
import { ApiError, notFound } from "../errors";
import { Prisma } from "../generated/prisma/client";
import { checkOutboundUrl, OutboundFailure, OutboundRefusal, resolveOutbound } from "../outbound/outbound-request";
import { randomId, RANDOM_ID_PATTERN } from "../secrets";
import { rolesAtLeast } from "../teams/roles";
import { memberWithRoleSql } from "../teams/team-activity";
import { kindsOfTypes, PERSONAL_EVENT_TYPES, TEAM_EVENT_TYPES, TEST_EVENT_KIND, TEST_EVENT_TYPE, typesOfKinds, type EventType } from "./event-types";
import { newEndpointSecret, sealEndpointSecret } from "./signing";
import type { NewEndpoint } from "./schemas";

// Webhook endpoints (docs/events.md): an account's, for its personal projects and its own events,
// and a team's, which its admins and owners manage. Every change checks the person's right in
// the statement that makes it, so a demotion that lands first leaves nothing written; an endpoint
// someone may not manage reads as one that does not exist. The secret is shown once.

export const ENDPOINTS_PER_OWNER = 20;

const noEndpoint = () => notFound("You have no webhook endpoint with this id.");

/** The endpoints `userId` manages: their own, and their teams' where they are an admin or owner (as a Prisma condition, and as SQL on `e`). */
const managedBy = (userId: string): Prisma.WebhookEndpointWhereInput => ({
  OR: [{ teamId: null, userId }, { team: { members: { some: { userId, role: { in: rolesAtLeast("admin") } } } } }],
});
const managedBySql = (userId: string): Prisma.Sql =>
  Prisma.sql`(("e"."teamId" IS NULL AND "e"."userId" = ${userId}) OR EXISTS (SELECT 1 FROM "TeamMember" m WHERE m."teamId" = "e"."teamId" AND m."userId" = ${userId} AND m."role" IN (${Prisma.join(rolesAtLeast("admin"))})))`;

/**
 * How the activity and its mail name an endpoint: its origin. A receiver's path or query often
 * carries a token of its own (chat services' incoming webhooks), which the activity, kept for
 * months, and a mail must not.
 */
export const endpointName = (url: string): string => new URL(url).origin;

/** The endpoint's event in the acting account's activity (and the team's), named by endpointName, written only if `condition` holds on `e`. */
function endpointRecord(prisma: Database, endpointId: string, name: string, actorId: string, kind: "webhook_endpoint_created" | "webhook_endpoint_deleted" | "webhook_secret_rotated", subjectId: string, condition: Prisma.Sql) {
  return prisma.$executeRaw`
    INSERT INTO "ActivityEvent" ("id", "userId", "kind", "subjectId", "occurredAt", "tokenName", "decidedBy", "teamId", "teamName")
    SELECT ${randomId()}, u."id", ${activityKind(kind)}, ${subjectId}, ${new Date()}, ${name}, u."email", e."teamId", (SELECT t."name" FROM "Team" t WHERE t."id" = e."teamId")
    FROM "WebhookEndpoint" e JOIN "User" u ON u."id" = ${actorId}
    WHERE e."id" = ${endpointId} AND ${condition}
    ON CONFLICT DO NOTHING`;
}

/** A URL the service may send to: refused at once when its host is private, so the person learns it now rather than from a failed delivery. */
async function checkedEndpointUrl(cfg: Config, text: string): Promise<string> {
  try {
    const url = checkOutboundUrl(text, cfg.outbound);
    await resolveOutbound(url, cfg.outbound);
    return url.href;
  } catch (error) {
    if (error instanceof OutboundRefusal && error.code === "outbound_url_invalid") {
      throw new ApiError("invalid_request", `url ${error.message}`, { fields: [{ field: "url", message: error.message }] });
    }
    if (error instanceof OutboundRefusal) throw new ApiError("webhook_address_refused", error.message);
    // A host that does not resolve yet may later: its deliveries say so.
    if (error instanceof OutboundFailure) return new URL(text).href;
    throw error;
  }
}

export type NewEndpointAnswer = { id: string; secret: string; url: string };

export async function createEndpoint(cfg: Config, userId: string, input: NewEndpoint): Promise<NewEndpointAnswer> {
  const teamId = input.team;
  if (teamId === null && input.types.some((type) => TEAM_EVENT_TYPES.includes(type))) {
    throw new ApiError("invalid_request", "types: team events go to a team's endpoints only", { fields: [{ field: "types", message: "team events go to a team's endpoints only" }] });
  }
  if (teamId !== null && input.types.some((type) => PERSONAL_EVENT_TYPES.includes(type))) {
    const message = "a denied or expired request belongs to no project: it goes to a person's own endpoints only";
    throw new ApiError("invalid_request", `types: ${message}`, { fields: [{ field: "types", message }] });
  }
  const url = await checkedEndpointUrl(cfg, input.url);
  const prisma = await db();
  const id = randomId();
  const secret = newEndpointSecret();
  const now = new Date();
  // The person's right and the owner's limit, in the statement that inserts.
  const allowed = teamId === null ? Prisma.sql`TRUE` : memberWithRoleSql(teamId, userId, rolesAtLeast("admin"));
  const owned = teamId === null ? Prisma.sql`"teamId" IS NULL AND "userId" = ${userId}` : Prisma.sql`"teamId" = ${teamId}`;
  const [, inserted] = await statementsInOneTransaction([
    // The owner's row is taken first, so that makings for one owner take turns: on PostgreSQL
    // (READ COMMITTED) each count would otherwise miss the rows of makings not yet committed.
    teamId === null ? prisma.$executeRaw`UPDATE "User" SET "id" = "id" WHERE "id" = ${userId}` : prisma.$executeRaw`UPDATE "Team" SET "id" = "id" WHERE "id" = ${teamId}`,
    prisma.$executeRaw`
      INSERT INTO "WebhookEndpoint" ("id", "userId", "teamId", "url", "description", "sealedSecret", "createdAt")
      SELECT ${id}, ${userId}, ${teamId}, ${url}, ${input.description}, ${sealEndpointSecret(cfg.masterKey, id, secret)}, ${now}
      WHERE ${allowed} AND (SELECT COUNT(*) FROM "WebhookEndpoint" WHERE ${owned}) < ${ENDPOINTS_PER_OWNER}`,
    prisma.$executeRaw`
      INSERT INTO "WebhookSubscription" ("endpointId", "kind")
      SELECT e."id", k."kind" FROM "WebhookEndpoint" e, (${Prisma.join(
        kindsOfTypes(input.types).map((kind) => Prisma.sql`SELECT ${kind} AS "kind"`),
        " UNION ALL ",
      )}) k
      WHERE e."id" = ${id}`,
    endpointRecord(prisma, id, endpointName(url), userId, "webhook_endpoint_created", id, Prisma.sql`TRUE`),
  ]);
  if (inserted === 1) return { id, secret, url };
  if (teamId !== null && (await prisma.teamMember.count({ where: { teamId, userId, role: { in: rolesAtLeast("admin") } } })) === 0) {
    // A team one is not in reads as one that does not exist; a member's role is told.
    if ((await prisma.teamMember.count({ where: { teamId, userId } })) === 0) throw notFound("You have no team with this id.");
    throw new ApiError("team_role_required", "Only the team's owners and admins may add webhook endpoints.");
  }
  throw new ApiError("webhook_endpoint_limit", `An account or a team has at most ${ENDPOINTS_PER_OWNER} webhook endpoints: delete one first.`);
}

export type EndpointSummary = {
  id: string;
  url: string;
  description: string;
  team: { id: string; name: string } | null;
  types: EventType[];
  createdAt: Date;
  disabledAt: Date | null;
  disabledReason: string | null;
  failingSince: Date | null;
  previousSecretUntil: Date | null;
};

const summarySelect = {
  id: true,
  url: true,
  description: true,
  createdAt: true,
  disabledAt: true,
  disabledReason: true,
  failingSince: true,
  previousSecretUntil: true,
  team: { select: { id: true, name: true } },
  subscriptions: { select: { kind: true } },
} satisfies Prisma.WebhookEndpointSelect;

type SummaryRow = Prisma.WebhookEndpointGetPayload<{ select: typeof summarySelect }>;

const summaryOf = ({ subscriptions, previousSecretUntil, ...row }: SummaryRow, now: Date): EndpointSummary => ({
  ...row,
  types: typesOfKinds(subscriptions.map((subscription) => subscription.kind)),
  previousSecretUntil: previousSecretUntil !== null && previousSecretUntil > now ? previousSecretUntil : null,
});

/** The endpoints `userId` manages, their own first, then their teams', newest first in each. */
export async function listEndpoints(userId: string): Promise<EndpointSummary[]> {
  const prisma = await db();
  const rows = await prisma.webhookEndpoint.findMany({ where: managedBy(userId), select: summarySelect, orderBy: [{ createdAt: "desc" }] });
  const now = new Date();
  return rows.map((row) => summaryOf(row, now)).sort((a, b) => (a.team?.name ?? "").localeCompare(b.team?.name ?? ""));
}

export type DeliveryAttempt = {
  id: string;
  messageId: string;
  type: string;
  attempt: number;
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  responseBody: string | null;
  /** The message's state now: delivered, failed, or when it is tried next. */
  outcome: string | null;
  nextAttemptAt: Date | null;
};

export type EndpointView = EndpointSummary & { attempts: DeliveryAttempt[]; pending: number };

const LOG_LENGTH = 50;

/** One endpoint with its latest LOG_LENGTH attempts, for someone who manages it. */
export async function viewEndpoint(userId: string, id: string): Promise<EndpointView> {
  if (!RANDOM_ID_PATTERN.test(id)) throw noEndpoint();
  const prisma = await db();
  const row = await prisma.webhookEndpoint.findFirst({ where: { id, ...managedBy(userId) }, select: summarySelect });
  if (row === null) throw noEndpoint();
  const [attempts, pending] = await Promise.all([
    prisma.webhookAttempt.findMany({
      where: { endpointId: id },
      orderBy: { startedAt: "desc" },
      take: LOG_LENGTH,
      select: {
        id: true,
        messageId: true,
        attempt: true,
        startedAt: true,
        durationMs: true,
        statusCode: true,
        error: true,
        responseBody: true,
        message: { select: { kind: true, outcome: true, nextAttemptAt: true } },
      },
    }),
    prisma.webhookMessage.count({ where: { endpointId: id, outcome: null } }),
  ]);
  return {
    ...summaryOf(row, new Date()),
    pending,
    attempts: attempts.map(({ message, ...attempt }) => ({
      ...attempt,
      type: message.kind === TEST_EVENT_KIND ? TEST_EVENT_TYPE : (typesOfKinds([message.kind])[0] ?? message.kind),
      outcome: message.outcome,
      nextAttemptAt: message.outcome === null ? message.nextAttemptAt : null,
    })),
  };
}

/** Disables or enables an endpoint; a disabled endpoint receives no new events, and its queued ones wait. */
export async function setEndpointEnabled(userId: string, id: string, enabled: boolean): Promise<void> {
  if (!RANDOM_ID_PATTERN.test(id)) throw noEndpoint();
  const prisma = await db();
  // Enabling an enabled endpoint keeps its health; disabling a disabled one keeps why it was.
  const changed = await prisma.webhookEndpoint.updateMany({
    where: { id, ...managedBy(userId), disabledAt: enabled ? { not: null } : null },
    data: enabled ? { disabledAt: null, disabledReason: null, failingSince: null } : { disabledAt: new Date(), disabledReason: "admin" },
  });
  if (changed.count === 1) return;
  if ((await prisma.webhookEndpoint.count({ where: { id, ...managedBy(userId) } })) === 0) throw noEndpoint();
}

export async function deleteEndpoint(userId: string, id: string): Promise<void> {
  if (!RANDOM_ID_PATTERN.test(id)) throw noEndpoint();
  const prisma = await db();
  const endpoint = await prisma.webhookEndpoint.findFirst({ where: { id, ...managedBy(userId) }, select: { url: true } });
  if (endpoint === null) throw noEndpoint();
  const allowed = managedBySql(userId);
  const [recorded] = await statementsInOneTransaction([
    endpointRecord(prisma, id, endpointName(endpoint.url), userId, "webhook_endpoint_deleted", id, allowed),
    prisma.$executeRaw`DELETE FROM "WebhookEndpoint" WHERE "id" = ${id} AND "id" IN (SELECT e."id" FROM "WebhookEndpoint" e WHERE ${allowed})`,
  ]);
  if (recorded !== 1) throw noEndpoint();
}

/** A new secret, shown once; the previous one keeps signing for `overlapHours` (0: stops at once). */
export async function rotateEndpointSecret(cfg: Config, userId: string, id: string, overlapHours: number): Promise<{ secret: string }> {
  if (!RANDOM_ID_PATTERN.test(id)) throw noEndpoint();
  const prisma = await db();
  const secret = newEndpointSecret();
  const now = new Date();
  const until = new Date(now.getTime() + overlapHours * 3_600_000);
  const rotationId = randomId();
  const endpoint = await prisma.webhookEndpoint.findFirst({ where: { id, ...managedBy(userId) }, select: { url: true } });
  if (endpoint === null) throw noEndpoint();
  const allowed = managedBySql(userId);
  const [rotated] = await statementsInOneTransaction([
    prisma.$executeRaw`
      UPDATE "WebhookEndpoint" SET "previousSealedSecret" = "sealedSecret", "previousSecretUntil" = ${until}, "sealedSecret" = ${sealEndpointSecret(cfg.masterKey, id, secret)}
      WHERE "id" = ${id} AND "id" IN (SELECT e."id" FROM "WebhookEndpoint" e WHERE ${allowed})`,
    endpointRecord(prisma, id, endpointName(endpoint.url), userId, "webhook_secret_rotated", rotationId, allowed),
  ]);
  if (rotated !== 1) throw noEndpoint();
  return { secret };
}

/** Queues a test event (webhook.test) for this endpoint alone, to be sent at once. */
export async function sendTestEvent(userId: string, id: string): Promise<void> {
  if (!RANDOM_ID_PATTERN.test(id)) throw noEndpoint();
  const prisma = await db();
  const now = new Date();
  const queued = await prisma.$executeRaw`
    INSERT INTO "WebhookMessage" ("id", "endpointId", "kind", "occurredAt", "data", "createdAt", "nextAttemptAt")
    SELECT ${`msg_${randomId()}`}, e."id", ${TEST_EVENT_KIND}, ${now}, '{}', ${now}, ${now}
    FROM "WebhookEndpoint" e WHERE e."id" = ${id} AND ${managedBySql(userId)}`;
  if (queued !== 1) throw noEndpoint();
}

/** Sends a message again from the start of the schedule (the same webhook-id, for receivers that de-duplicate). */
export async function resendMessage(userId: string, endpointId: string, messageId: string): Promise<void> {
  if (!RANDOM_ID_PATTERN.test(endpointId) || !/^msg_[0-9A-Za-z_-]{16,64}$/.test(messageId)) throw noEndpoint();
  const prisma = await db();
  const now = new Date();
  const queued = await prisma.$executeRaw`
    UPDATE "WebhookMessage" SET "outcome" = NULL, "endedAt" = NULL, "failures" = 0, "nextAttemptAt" = ${now}, "claimedUntil" = NULL
    WHERE "id" = ${messageId} AND "endpointId" = ${endpointId} AND "outcome" IS NOT NULL
      AND "endpointId" IN (SELECT e."id" FROM "WebhookEndpoint" e WHERE ${managedBySql(userId)})`;
  if (queued === 1) return;
  const pending = await prisma.webhookMessage.count({ where: { id: messageId, endpointId, outcome: null, endpoint: managedBy(userId) } });
  if (pending === 0) throw notFound("This endpoint has no delivery with this id.");
}
