import type { Config } from "../config";
import { activityKind } from "../activity/record-activity";
import { databaseProvider } from "../database/database-url";
import { db, statementsInOneTransaction } from "../database/db";
import { Prisma } from "../generated/prisma/client";
import { noticeStatements } from "../email/notices";
import { postOutbound, OutboundFailure, OutboundRefusal } from "../outbound/outbound-request";
import { processWide } from "../process-wide";
import { randomId } from "../secrets";
import { logger } from "../../server/logger.mjs";
import { endpointName } from "./endpoints";
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
/** Attempts one process has in flight at most (and messages one pass leases). */
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
/** A message this process holds: its lease, as written (`claimedUntil`). */
type LeasedMessage = DueMessage & { claimedUntil: Date };

type Outcome = "delivered" | "retried" | "failed";
type Attempted = { message: LeasedMessage; outcome: Outcome; startedAt: Date; endedAt: Date; statusCode: number | null; error: string | null; responseBody: string | null; failures: number; wait: number | null };

/**
 * Leases up to `limit` messages due at `now` to enabled endpoints, in one statement: the lease
 * and the attempt's number are written for all at once, and a message another worker holds is
 * not taken (its lease has not run out; on PostgreSQL, a row another instance is leasing at this
 * moment is skipped, FOR UPDATE SKIP LOCKED, rather than waited for).
 */
async function leaseDue(cfg: Config, now: Date, limit: number): Promise<LeasedMessage[]> {
  const prisma = await db();
  // A read first: on SQLite the UPDATE takes the write lock even when nothing is due, every second in every process.
  const due = await prisma.webhookMessage.findFirst({ where: { outcome: null, nextAttemptAt: { lte: now }, OR: [{ claimedUntil: null }, { claimedUntil: { lte: now } }], endpoint: { disabledAt: null } }, select: { id: true } });
  if (due === null) return [];
  const lease = new Date(Date.now() + LEASE_MS);
  const skipLocked = databaseProvider(cfg.databaseUrl) === "postgresql" ? Prisma.sql`FOR UPDATE OF m SKIP LOCKED` : Prisma.empty;
  const leased = await prisma.$queryRaw<{ id: string }[]>`
    UPDATE "WebhookMessage" SET "claimedUntil" = ${lease}, "attempts" = "attempts" + 1
    WHERE "id" IN (
        SELECT m."id" FROM "WebhookMessage" m JOIN "WebhookEndpoint" e ON e."id" = m."endpointId"
        WHERE m."outcome" IS NULL AND m."nextAttemptAt" <= ${now} AND (m."claimedUntil" IS NULL OR m."claimedUntil" <= ${now}) AND e."disabledAt" IS NULL
        ORDER BY m."nextAttemptAt" LIMIT ${limit} ${skipLocked})
      AND "outcome" IS NULL AND ("claimedUntil" IS NULL OR "claimedUntil" <= ${now})
    RETURNING "id"`;
  if (leased.length === 0) return [];
  const rows = await prisma.webhookMessage.findMany({ where: { id: { in: leased.map((row) => row.id) }, claimedUntil: lease }, select: dueSelect });
  return rows.map((row) => ({ ...row, claimedUntil: lease }));
}

/** APP_NAME may hold any printable text; a header takes visible ASCII only (RFC 9110 §5.5). */
const userAgent = (cfg: Config) => `${cfg.brand.name.replace(/[^\x21-\x7E]+/g, "-")}-webhooks`;

/** One attempt at sending a leased message: what became of it, not yet recorded. */
async function send(cfg: Config, message: LeasedMessage): Promise<Attempted> {
  const startedAt = new Date();
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
      { url: new URL(endpoint.url), headers: { ...signedHeaders(secrets, message.id, startedAt, body), "user-agent": userAgent(cfg) }, body, timeoutMs: TIMEOUT_MS, maxBodyBytes: RESPONSE_BODY_BYTES },
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
  const delivered = statusCode !== null && statusCode >= 200 && statusCode < 300;
  if (!delivered && error === null) error = `answered ${statusCode ?? "nothing"}`;
  const failures = delivered ? message.failures : message.failures + 1;
  const wait = delivered ? null : retryDelayMs(cfg.webhookRetryScheduleMs, failures);
  const outcome = delivered ? "delivered" : wait === null ? "failed" : "retried";
  return { message, outcome, startedAt, endedAt: new Date(), statusCode, error, responseBody, failures, wait };
}

/**
 * Records attempts in one transaction (one commit, one fsync on SQLite, for many), each only
 * while its lease is still the recording worker's: the log lines; the messages' outcomes (all
 * delivered at once, all failed at once; a retry's time is its own); the endpoints' health: one
 * delivered to is not failing, one that only failed is failing since the first of these
 * failures unless it was already. The attempts recorded; for a failed message, its endpoint may
 * be disabled.
 */
async function record(cfg: Config, attempts: Attempted[]): Promise<Attempted[]> {
  let recorded: Attempted[];
  try {
    recorded = await recordTogether(attempts);
  } catch (error) {
    if (attempts.length === 1) throw error;
    // One attempt the database refuses must not hold back the others, whose leases would run out and send them again:
    // each on its own, then.
    recorded = [];
    for (const attempt of attempts) {
      try {
        recorded.push(...(await recordTogether([attempt])));
      } catch (alone) {
        logger().error({ err: alone, webhook_message_id: attempt.message.id }, "webhook attempt not recorded: its lease runs out and it is sent again");
      }
    }
  }
  for (const attempt of recorded) if (attempt.outcome === "failed") await disableIfFailingSince(cfg, attempt.message);
  return recorded;
}

async function recordTogether(attempts: Attempted[]): Promise<Attempted[]> {
  const prisma = await db();
  const lines = attempts.map((attempt) => ({ id: randomId(), attempt }));
  const lineIds = Prisma.join(lines.map((line) => line.id));
  const held = (list: Attempted[]) => Prisma.join(list.map(({ message }) => Prisma.sql`(${message.id}, ${message.claimedUntil})`));
  const ended = (outcome: Outcome) => attempts.filter((attempt) => attempt.outcome === outcome);
  const endedAt = new Date();
  const outcome = (list: Attempted[], value: "delivered" | "failed") =>
    list.length === 0 ? [] : [prisma.$executeRaw`UPDATE "WebhookMessage" SET "outcome" = ${value}, "endedAt" = ${endedAt}, "claimedUntil" = NULL, "failures" = "failures" + ${value === "failed" ? 1 : 0} WHERE ("id", "claimedUntil") IN (${held(list)})`];
  const delivered2xx = Prisma.sql`a."statusCode" >= 200 AND a."statusCode" < 300`;
  await statementsInOneTransaction([
    // One line each, copied through its message's row: none for a lease no longer held, nor for a message deleted meanwhile (its endpoint deleted).
    ...lines.map(({ id, attempt: { message, startedAt, endedAt: attemptEnded, statusCode, error, responseBody } }) =>
      prisma.$executeRaw`
        INSERT INTO "WebhookAttempt" ("id", "messageId", "endpointId", "attempt", "startedAt", "durationMs", "statusCode", "error", "responseBody")
        SELECT ${id}, m."id", m."endpointId", ${message.attempts}, ${startedAt}, ${attemptEnded.getTime() - startedAt.getTime()}, ${statusCode}, ${error}, ${responseBody}
        FROM "WebhookMessage" m WHERE m."id" = ${message.id} AND m."claimedUntil" = ${message.claimedUntil}`,
    ),
    ...outcome(ended("delivered"), "delivered"),
    ...outcome(ended("failed"), "failed"),
    ...ended("retried").map(({ message, endedAt: attemptEnded, failures, wait }) =>
      prisma.webhookMessage.updateMany({
        where: { id: message.id, claimedUntil: message.claimedUntil },
        data: { failures, claimedUntil: null, nextAttemptAt: new Date(attemptEnded.getTime() + (wait ?? 0)) },
      }),
    ),
    prisma.$executeRaw`
      UPDATE "WebhookEndpoint" SET "failingSince" = NULL
      WHERE "failingSince" IS NOT NULL AND "id" IN (SELECT a."endpointId" FROM "WebhookAttempt" a WHERE a."id" IN (${lineIds}) AND ${delivered2xx})`,
    prisma.$executeRaw`
      UPDATE "WebhookEndpoint" SET "failingSince" = (SELECT MIN(a."startedAt") FROM "WebhookAttempt" a WHERE a."id" IN (${lineIds}) AND a."endpointId" = "WebhookEndpoint"."id")
      WHERE "failingSince" IS NULL
        AND "id" IN (SELECT a."endpointId" FROM "WebhookAttempt" a WHERE a."id" IN (${lineIds}))
        AND "id" NOT IN (SELECT a."endpointId" FROM "WebhookAttempt" a WHERE a."id" IN (${lineIds}) AND ${delivered2xx})`,
  ]);
  const kept = new Set((await prisma.webhookAttempt.findMany({ where: { id: { in: lines.map((line) => line.id) } }, select: { id: true } })).map((row) => row.id));
  return lines.filter((line) => kept.has(line.id)).map((line) => line.attempt);
}

const resultOf = (recorded: Attempted[]): DeliveryResult => ({
  delivered: recorded.filter((attempt) => attempt.outcome === "delivered").length,
  retried: recorded.filter((attempt) => attempt.outcome === "retried").length,
  failed: recorded.filter((attempt) => attempt.outcome === "failed").length,
});

/** One pass: leases up to BATCH messages due at `now`, sends them all at once, records them together; what became of them. */
export async function deliverDueWebhooks(cfg: Config, now = new Date()): Promise<DeliveryResult> {
  const leased = await leaseDue(cfg, now, BATCH);
  if (leased.length === 0) return { delivered: 0, retried: 0, failed: 0 };
  return resultOf(await record(cfg, await Promise.all(leased.map((message) => send(cfg, message)))));
}

/**
 * After `message` spent its schedule: if nothing was delivered to its endpoint since the message
 * was made, the endpoint has failed for a whole schedule and is disabled, once, with its event
 * and the notice to the person who made it.
 */
async function disableIfFailingSince(cfg: Config, message: DueMessage): Promise<void> {
  const prisma = await db();
  const now = new Date();
  // failingSince is the first failure since the last delivery. It comes after the message was
  // made when the endpoint was healthy then (the message's own first attempt began the run of
  // failures): the attempts since the message was made then say whether any was delivered.
  const [disabled] = await statementsInOneTransaction([
    prisma.$executeRaw`
      UPDATE "WebhookEndpoint" SET "disabledAt" = ${now}, "disabledReason" = 'failing'
      WHERE "id" = ${message.endpointId} AND "disabledAt" IS NULL AND "failingSince" IS NOT NULL
        AND ("failingSince" <= ${message.createdAt} OR NOT EXISTS (
          SELECT 1 FROM "WebhookAttempt" a
          WHERE a."endpointId" = ${message.endpointId} AND a."startedAt" >= ${message.createdAt} AND a."statusCode" >= 200 AND a."statusCode" < 300))`,
    prisma.$executeRaw`
      INSERT INTO "ActivityEvent" ("id", "userId", "kind", "subjectId", "occurredAt", "tokenName", "teamId", "teamName")
      SELECT ${randomId()}, e."userId", ${activityKind("webhook_endpoint_disabled")}, ${message.id}, ${now}, ${endpointName(message.endpoint.url)}, e."teamId", (SELECT t."name" FROM "Team" t WHERE t."id" = e."teamId")
      FROM "WebhookEndpoint" e
      WHERE e."id" = ${message.endpointId} AND e."disabledAt" = ${now} AND e."disabledReason" = 'failing'
        -- Another of its messages that failed in the same millisecond finds the endpoint disabled at this very time: one event a disabling.
        AND NOT EXISTS (
          SELECT 1 FROM "ActivityEvent" a JOIN "WebhookMessage" m ON m."id" = a."subjectId"
          WHERE a."kind" = ${activityKind("webhook_endpoint_disabled")} AND a."occurredAt" = e."disabledAt" AND m."endpointId" = e."id")
      ON CONFLICT DO NOTHING`,
    ...noticeStatements(cfg, prisma, message.endpoint.userId, "webhook_endpoint_disabled", message.id),
  ]);
  if (disabled === 1) logger().warn({ webhook_endpoint_id: message.endpointId }, "webhook endpoint disabled: its deliveries failed for the whole retry schedule");
}

// One worker per process, whichever bundle of lib/ nudges it (lib/process-wide.ts). It keeps up
// to BATCH attempts in flight: whenever some end, their outcomes are recorded together (attempts
// that end while a commit runs go into the next one) and as many new messages are leased, so a
// slow attempt holds its own slot only. (Slots are not shared out by endpoint: one endpoint with
// a backlog and no answer can hold them all for its 10 s.)
const worker = processWide("webhook-worker", () => ({ inFlight: 0, leasing: false, again: false, ended: [] as Attempted[], recording: false }));

/** Leases messages for the free slots now, or right after the running lease. */
export function nudgeWebhooks(cfg: Config): void {
  if (worker.leasing) {
    worker.again = true;
    return;
  }
  const free = BATCH - worker.inFlight;
  if (free <= 0) return;
  worker.leasing = true;
  leaseDue(cfg, new Date(), free)
    .then((leased) => {
      worker.inFlight += leased.length;
      for (const message of leased) {
        send(cfg, message)
          .then((attempted) => {
            worker.ended.push(attempted);
            recordEnded(cfg);
          })
          // send() answers every failure itself; should it ever throw, the slot is given back and the lease runs out.
          .catch((error: unknown) => {
            worker.inFlight -= 1;
            logger().error({ err: error, webhook_message_id: message.id }, "webhook attempt failed unrecorded");
          });
      }
      // Every free slot taken: more may be due.
      if (leased.length === free) worker.again = true;
    })
    .catch((error: unknown) => logger().error({ err: error }, "webhook delivery failed"))
    .finally(() => {
      worker.leasing = false;
      if (worker.again) {
        worker.again = false;
        nudgeWebhooks(cfg);
      }
    });
}

/** Records the attempts that ended, together, then fills their slots. */
function recordEnded(cfg: Config): void {
  if (worker.recording) return;
  worker.recording = true;
  const batch = worker.ended.splice(0);
  record(cfg, batch)
    .catch((error: unknown) => logger().error({ err: error }, "webhook outcomes not recorded: their leases run out and they are sent again"))
    .finally(() => {
      worker.inFlight -= batch.length;
      worker.recording = false;
      if (worker.ended.length > 0) recordEnded(cfg);
      nudgeWebhooks(cfg);
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
