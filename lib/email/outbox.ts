import type { Config } from "../config";
import { db } from "../database/db";
import { processWide } from "../process-wide";
import { logger } from "../../server/logger.mjs";
import { sendFailure, sendMail } from "./mail-transport";
import { composeEmail } from "./messages";

// Sends the outbox's mail (OutboxEmail), at least once. Rows are written in the transactions of
// what they tell of, so a mail exists if and only if its change committed; every instance sends.
// A sender takes a row with a conditional update that leases it for LEASE_MS from that moment
// (longer than one send may take: SMTP_URL's timeouts end one by 50 s), so two senders do not send
// the same row at once, and it records the outcome only while it holds the lease; a sender that
// dies mid-send leaves the lease to run out, and the row is sent again (at least once, never lost).
// A refusal, a network failure or a message that cannot be made is tried again after a growing
// wait, MAX_ATTEMPTS times in all (about four hours), then the row is failed and logged. Requests
// only write rows and nudge the sender: a slow mail server slows no request.

const LEASE_MS = 120_000;
const BATCH = 20;
export const MAX_ATTEMPTS = 11;
/** How often every instance looks for due mail: retries, and rows another instance left. */
const POLL_MS = 15_000;
/** Sent and failed rows are kept this long, for the operator's questions, then swept. */
export const OUTBOX_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/** The wait before attempt `attempts + 1`: 30 s, doubling, at most an hour (with MAX_ATTEMPTS, about 4 h 4 min in all). */
export const retryDelayMs = (attempts: number) => Math.min(30_000 * 2 ** (attempts - 1), 60 * 60_000);

export type DeliveryResult = { sent: number; retried: number; failed: number; dropped: number };

/** Sends every row due at `now` that no other sender holds; returns what became of them. */
export async function deliverDueEmails(cfg: Config, now = new Date()): Promise<DeliveryResult> {
  const result: DeliveryResult = { sent: 0, retried: 0, failed: 0, dropped: 0 };
  const email = cfg.email;
  if (email === null) return result;
  const prisma = await db();
  const due = await prisma.outboxEmail.findMany({
    where: { outcome: null, nextAttemptAt: { lte: now }, OR: [{ claimedUntil: null }, { claimedUntil: { lte: now } }] },
    orderBy: { nextAttemptAt: "asc" },
    take: BATCH,
    select: { id: true, kind: true, to: true, sealedToken: true, emailLinkId: true, teamInvitationId: true, activityEventId: true, attempts: true, claimedUntil: true },
  });
  for (const row of due) {
    // The lease and the link's validity from this moment: a pass may run long behind a slow server.
    const leasedAt = new Date();
    const lease = new Date(leasedAt.getTime() + LEASE_MS);
    const leased = await prisma.outboxEmail.updateMany({
      where: { id: row.id, outcome: null, claimedUntil: row.claimedUntil, attempts: row.attempts, nextAttemptAt: { lte: now } },
      data: { claimedUntil: lease },
    });
    if (leased.count !== 1) continue;
    const attempts = row.attempts + 1;
    // What this sender records, only while the lease is still its own.
    const held = { id: row.id, outcome: null, claimedUntil: lease };
    try {
      const composed = await composeEmail(cfg, prisma, row, leasedAt);
      if ("drop" in composed) {
        await prisma.outboxEmail.updateMany({ where: held, data: { outcome: "dropped", endedAt: new Date(), claimedUntil: null, sealedToken: null, lastError: composed.drop } });
        result.dropped++;
        continue;
      }
      await sendMail(email, composed.send);
      await prisma.outboxEmail.updateMany({ where: held, data: { outcome: "sent", endedAt: new Date(), attempts, claimedUntil: null, sealedToken: null, lastError: null } });
      result.sent++;
    } catch (error) {
      const reason = sendFailure(error, email);
      const spent = attempts >= MAX_ATTEMPTS;
      const failedAt = new Date();
      await prisma.outboxEmail.updateMany({
        where: held,
        data: spent
          ? { outcome: "failed", endedAt: failedAt, attempts, claimedUntil: null, sealedToken: null, lastError: reason }
          : { attempts, nextAttemptAt: new Date(failedAt.getTime() + retryDelayMs(attempts)), claimedUntil: null, lastError: reason },
      });
      if (spent) {
        logger().error({ outbox_id: row.id, kind: row.kind, attempts, reason }, "mail not sent: every attempt failed");
        result.failed++;
      } else {
        logger().warn({ outbox_id: row.id, kind: row.kind, attempts, reason }, "mail not sent: will try again");
        result.retried++;
      }
    }
  }
  return result;
}

// One sender per process, whichever bundle of lib/ nudges it (lib/process-wide.ts).
const sender = processWide("mail-sender", () => ({ running: false, again: false }));

/** One delivery pass now, or right after the running one: called after a commit that queued mail. */
export function nudgeOutbox(cfg: Config): void {
  if (cfg.email === null) return;
  if (sender.running) {
    sender.again = true;
    return;
  }
  sender.running = true;
  setImmediate(() => {
    deliverDueEmails(cfg)
      .then((result) => {
        // A full batch may have left more due: another pass at once.
        if (result.sent + result.retried + result.failed + result.dropped >= BATCH) sender.again = true;
      })
      .catch((error: unknown) => logger().error({ err: error }, "mail delivery failed"))
      .finally(() => {
        sender.running = false;
        if (sender.again) {
          sender.again = false;
          nudgeOutbox(cfg);
        }
      });
  });
}

/** Looks for due mail every POLL_MS in every instance (without mail configured, never); never keeps the process alive. */
export function startOutbox(cfg: Config): void {
  if (cfg.email === null) return;
  nudgeOutbox(cfg);
  setInterval(() => nudgeOutbox(cfg), POLL_MS).unref();
}

/** Deletes sent, failed and dropped rows OUTBOX_RETENTION_MS after they ended, and links past their expiry by as long. */
export async function sweepOutbox(now: number): Promise<number> {
  const prisma = await db();
  const cutoff = new Date(now - OUTBOX_RETENTION_MS);
  const rows = await prisma.outboxEmail.deleteMany({ where: { endedAt: { lt: cutoff } } });
  const links = await prisma.emailLink.deleteMany({ where: { expiresAt: { lt: cutoff } } });
  return rows.count + links.count;
}
