import type { Config } from "../config";
import { db } from "../database/db";
import { ACTIVITY_COLUMNS, activityKind } from "./record-activity";

// The sweep's part of the activity (lib/maintenance/sweep.ts): the expiry of inits that an
// account opened and no one decided, recorded before the sweep deletes them; and events past
// ACTIVITY_RETENTION_DAYS, deleted.

// An approval whose clock read came before the expiry may still commit a moment after it; an
// init that has been expired this long can no longer change.
const SETTLED_AFTER_MS = 60_000;

/**
 * Records `init_expired` for every account that opened an init still pending past its expiry.
 * Inits the sweep deletes now (INIT_RETENTION_SECONDS may be shorter than the margin) are
 * included. Once per (account, init): the expiry's id is its opening's, with a suffix, so a
 * second sweep, or another instance's, inserts nothing.
 */
export async function recordExpiries(cfg: Config, now: number): Promise<number> {
  const prisma = await db();
  const settled = new Date(now - Math.min(SETTLED_AFTER_MS, cfg.initRetentionMs));
  return prisma.$executeRaw`
    INSERT INTO "ActivityEvent" ${ACTIVITY_COLUMNS}
    SELECT o."id" || '.expired', o."userId", ${activityKind("init_expired")}, i."id", i."expiresAt", NULL, NULL, i."sender", i."senderDevice", i."senderOs", i."senderIp", i."observedIp", i."observedUserAgent", NULL, NULL, NULL
    FROM "ActivityEvent" o JOIN "Init" i ON i."id" = o."subjectId"
    WHERE o."kind" = ${activityKind("init_opened")} AND i."status" = 'pending' AND i."expiresAt" < ${settled}
    ON CONFLICT DO NOTHING`;
}

/** Deletes events older than ACTIVITY_RETENTION_DAYS. */
export async function deleteOldActivity(cfg: Config, now: number): Promise<number> {
  const prisma = await db();
  const removed = await prisma.activityEvent.deleteMany({ where: { occurredAt: { lt: new Date(now - cfg.activityRetentionMs) } } });
  return removed.count;
}
