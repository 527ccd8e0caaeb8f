import type { Config } from "../config";
import type { Database } from "../database/db";
import type { Prisma } from "../generated/prisma/client";
import { activityKind } from "../activity/record-activity";
import { randomId } from "../secrets";

// Security notices: mail to the account's address when something happened that its owner should
// know of at once, whoever did it. Each tells of one activity event and is queued in the
// transaction that records it, on the condition that the event was written: a change that did
// not commit sends nothing, and an event sends one notice at most (OutboxEmail.activityEventId).

/** The events that send a notice (an approval only when it came from another network than the client's). */
export type NoticeKind = "password_changed" | "password_reset" | "passkey_added" | "approval_reported" | "init_approved" | "webhook_endpoint_disabled";

/**
 * The statement that queues the notice of `userId`'s event (`kind`, `subjectId`), as a list to
 * spread into the change's transaction: empty without mail (SMTP_URL unset), so nothing waits
 * for a sender that will never come.
 */
export function noticeStatements(cfg: Config, prisma: Database, userId: string, kind: NoticeKind, subjectId: string): Prisma.PrismaPromise<number>[] {
  if (cfg.email === null) return [];
  const now = new Date();
  return [
    prisma.$executeRaw`
      INSERT INTO "OutboxEmail" ("id", "userId", "kind", "to", "activityEventId", "createdAt", "nextAttemptAt")
      SELECT ${randomId()}, a."userId", 'notice', u."email", a."id", ${now}, ${now}
      FROM "ActivityEvent" a JOIN "User" u ON u."id" = a."userId"
      WHERE a."userId" = ${userId} AND a."kind" = ${activityKind(kind)} AND a."subjectId" = ${subjectId}
      ON CONFLICT DO NOTHING`,
  ];
}
