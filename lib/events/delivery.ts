import type { Config } from "../config";
import { activityKind } from "../activity/record-activity";
import { db, statementsInOneTransaction } from "../database/db";
import type { Prisma } from "../generated/prisma/client";
import { noticeStatements } from "../email/notices";
import { postOutbound, OutboundFailure, OutboundRefusal } from "../outbound/outbound-request";
import { processWide } from "../process-wide";
import { randomId } from "../secrets";
import { logger } from "../../server/logger.mjs";
import { eventBody } from "./event-body";
import { signedHeaders, unsealEndpointSecret } from "./signing";

// Sends the outbox's events (WebhookMessage), at least once (docs/events.md). Every instance
// sends: a worker takes a message with a conditional update that leases it for LEASE_MS (longer
// than an attempt may take), so no two workers send it at once, and records the outcome only
// while it holds the lease; a worker that dies mid-send leaves the lease to run out, and the
// message is sent again. A 2xx answer within TIMEOUT_MS is delivered; anything else is tried
// again after the next wait of WEBHOOK_RETRY_SCHEDULE (±20 % jitter, so that retries of many
// messages spread out), and after the last the message has failed. An endpoint whose messages
// failed for a whole schedule with nothing delivered meanwhile is disabled, and the person who
// made it is told (activity, and mail when mail is set).

const LEASE_MS = 30_000;
export const TIMEOUT_MS = 10_000;
/** How much of an answer's body the log keeps. */
export const RESPONSE_BODY_BYTES = 1024;
/** Messages leased at once by one pass, sent in parallel. */
const BATCH = 50;
/** How often every instance looks for due messages: new events, retries, and messages another instance left. */
const POLL_MS = 1_000;
/** Ended messages and attempts are kept this long for the delivery log, then swept. */
export const DELIVERY_LOG_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/** The wait before the next attempt after `failures` failed ones (1-based), or null when the schedule is spent. */
export function retryDelayMs(schedule: readonly number[], failures: number, random = Math.random): number | null {
  const base = schedule[failures - 1];
  if (base === undefined) return null;
  return Math.round(base * (0.8 + 0.4 * random()));
}

export type DeliveryResult = { delivered: number; retried: number; failed: number };

const dueSelect = {
  id: true,
  endpointId: true,
  kind: true,
  occurredAt: true,
  data: true,
  createdAt: true,
  attempts: true,
  failures: true,
  claimedUntil: true,
  endpoint: { select: { url: true, userId: true, sealedSecret: true, previousSealedSecret: true, previousSecretUntil: true } },
} satisfies Prisma.WebhookMessageSelect;

type DueMessage = Prisma.WebhookMessageGetPayload<{ select: typeof dueSelect }>;

/** Sends every message due at `now` that no other worker holds, to endpoints that are enabled; returns what became of them. */
export async function deliverDueWebhooks(cfg: Config, now = new Date()): Promise<DeliveryResult> {
  const prisma = await db();
  const due = await prisma.webhookMessage.findMany({
    where: { outcome: null, nextAttemptAt: { lte: now }, OR: [{ claimedUntil: null }, { claimedUntil: { lte: now } }], endpoint: { disabledAt: null } },
    orderBy: { nextAttemptAt: "asc" },
    take: BATCH,
    select: dueSelect,
  });
  const outcomes = await Promise.all(due.map((message) => attempt(cfg, message, now)));
  return {
    delivered: outcomes.filter((outcome) => outcome === "delivered").length,
    retried: outcomes.filter((outcome) => outcome === "retried").length,
    failed: outcomes.filter((outcome) => outcome === "failed").length,
  };
}

async function attempt(cfg: Config, message: DueMessage, now: Date): Promise<"delivered" | "retried" | "failed" | "taken"> {
  const prisma = await db();
  const startedAt = new Date();
  const lease = new Date(startedAt.getTime() + LEASE_MS);
  const attemptNumber = message.attempts + 1;
  const leased = await prisma.webhookMessage.updateMany({
    where: { id: message.id, outcome: null, claimedUntil: message.claimedUntil, attempts: message.attempts, nextAttemptAt: { lte: now } },
    data: { claimedUntil: lease, attempts: attemptNumber },
  });
  if (leased.count !== 1) return "taken";

  let statusCode: number | null = null;
  let responseBody: string | null = null;
  let error: string | null = null;
  try {
    const { endpoint } = message;
    const secrets = [unsealEndpointSecret(cfg.masterKey, message.endpointId, endpoint.sealedSecret)];
    if (endpoint.previousSealedSecret !== null && endpoint.previousSecretUntil !== null && endpoint.previousSecretUntil > startedAt) {
      secrets.push(unsealEndpointSecret(cfg.masterKey, message.endpointId, endpoint.previousSealedSecret));
    }
    const body = eventBody(message.kind, message.occurredAt, message.data, message.endpointId);
    const answer = await postOutbound(
      { url: new URL(endpoint.url), headers: { ...signedHeaders(secrets, message.id, startedAt, body), "user-agent": `${cfg.brand.name}-webhooks` }, body, timeoutMs: TIMEOUT_MS, maxBodyBytes: RESPONSE_BODY_BYTES },
      cfg.outbound,
    );
    statusCode = answer.status;
    responseBody = answer.body;
  } catch (failure) {
    if (failure instanceof OutboundFailure || failure instanceof OutboundRefusal) error = failure.message;
    else {
      logger().error({ err: failure, webhook_message_id: message.id }, "webhook not sent: the message could not be made");
      error = "the event could not be sent (see the service's log)";
    }
  }
  const endedAt = new Date();
  const delivered = statusCode !== null && statusCode >= 200 && statusCode < 300;
  if (!delivered && error === null) error = `answered ${statusCode ?? "nothing"}`;
  const failures = delivered ? message.failures : message.failures + 1;
  const wait = delivered ? null : retryDelayMs(cfg.webhookRetryScheduleMs, failures);
  const outcome = delivered ? "delivered" : wait === null ? "failed" : "retried";
  const held = { id: message.id, claimedUntil: lease };

  // The attempt's log line, the message's outcome and the endpoint's health, only while the lease is this worker's.
  const [logged] = await statementsInOneTransaction([
    prisma.$executeRaw`
      INSERT INTO "WebhookAttempt" ("id", "messageId", "endpointId", "attempt", "startedAt", "durationMs", "statusCode", "error", "responseBody")
      SELECT ${randomId()}, m."id", m."endpointId", ${attemptNumber}, ${startedAt}, ${endedAt.getTime() - startedAt.getTime()}, ${statusCode}, ${error}, ${responseBody}
      FROM "WebhookMessage" m WHERE m."id" = ${message.id} AND m."claimedUntil" = ${lease}`,
    prisma.webhookMessage.updateMany({
      where: held,
      data:
        outcome === "retried"
          ? { failures, claimedUntil: null, nextAttemptAt: new Date(endedAt.getTime() + (wait ?? 0)) }
          : { failures, claimedUntil: null, outcome, endedAt },
    }),
    delivered
      ? prisma.webhookEndpoint.updateMany({ where: { id: message.endpointId, failingSince: { not: null } }, data: { failingSince: null } })
      : prisma.webhookEndpoint.updateMany({ where: { id: message.endpointId, failingSince: null }, data: { failingSince: startedAt } }),
  ]);
  if (logged !== 1) return "taken";
  if (outcome === "failed") await disableIfFailingSince(cfg, message);
  return outcome;
}

/**
 * After `message` spent its schedule: if nothing was delivered to its endpoint since the message
 * was made, the endpoint has failed for a whole schedule and is disabled, once, with its event
 * and the notice to the person who made it.
 */
async function disableIfFailingSince(cfg: Config, message: DueMessage): Promise<void> {
  const prisma = await db();
  const now = new Date();
  const [disabled] = await statementsInOneTransaction([
    prisma.$executeRaw`
      UPDATE "WebhookEndpoint" SET "disabledAt" = ${now}, "disabledReason" = 'failing'
      WHERE "id" = ${message.endpointId} AND "disabledAt" IS NULL AND "failingSince" IS NOT NULL AND "failingSince" <= ${message.createdAt}`,
    prisma.$executeRaw`
      INSERT INTO "ActivityEvent" ("id", "userId", "kind", "subjectId", "occurredAt", "tokenName", "teamId", "teamName")
      SELECT ${randomId()}, e."userId", ${activityKind("webhook_endpoint_disabled")}, ${message.id}, ${now}, e."url", e."teamId", (SELECT t."name" FROM "Team" t WHERE t."id" = e."teamId")
      FROM "WebhookEndpoint" e
      WHERE e."id" = ${message.endpointId} AND e."disabledAt" = ${now} AND e."disabledReason" = 'failing'
      ON CONFLICT DO NOTHING`,
    ...noticeStatements(cfg, prisma, message.endpoint.userId, "webhook_endpoint_disabled", message.id),
  ]);
  if (disabled === 1) logger().warn({ webhook_endpoint_id: message.endpointId }, "webhook endpoint disabled: its deliveries failed for the whole retry schedule");
}

// One worker per process, whichever bundle of lib/ nudges it (lib/process-wide.ts).
const worker = processWide("webhook-worker", () => ({ running: false, again: false }));

/** One delivery pass now, or right after the running one. */
export function nudgeWebhooks(cfg: Config): void {
  if (worker.running) {
    worker.again = true;
    return;
  }
  worker.running = true;
  setImmediate(() => {
    deliverDueWebhooks(cfg)
      .then((result) => {
        // A full batch may have left more due: another pass at once.
        if (result.delivered + result.retried + result.failed >= BATCH) worker.again = true;
      })
      .catch((error: unknown) => logger().error({ err: error }, "webhook delivery failed"))
      .finally(() => {
        worker.running = false;
        if (worker.again) {
          worker.again = false;
          nudgeWebhooks(cfg);
        }
      });
  });
}

/** Looks for due messages every POLL_MS in every instance; never keeps the process alive. */
export function startWebhookWorker(cfg: Config): void {
  nudgeWebhooks(cfg);
  setInterval(() => nudgeWebhooks(cfg), POLL_MS).unref();
}

/** Deletes messages DELIVERY_LOG_RETENTION_MS after they ended (their attempts with them), and older attempts of messages still kept. */
export async function sweepWebhookMessages(now: number): Promise<number> {
  const prisma = await db();
  const cutoff = new Date(now - DELIVERY_LOG_RETENTION_MS);
  const messages = await prisma.webhookMessage.deleteMany({ where: { endedAt: { lt: cutoff } } });
  const attempts = await prisma.webhookAttempt.deleteMany({ where: { startedAt: { lt: cutoff } } });
  return messages.count + attempts.count;
}
