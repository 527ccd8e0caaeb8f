import type { Config } from "../config";
import { seal } from "../crypto/sealed";
import type { Database } from "../database/db";
import { ApiError } from "../errors";
import { hashSecret, randomId, randomSecret } from "../secrets";

// Single-use links sent by email: confirming the account's address, and setting a new password.
// The token is 256 random bits; the database keeps its SHA-256 (EmailLink.tokenHash) and, until
// the mail is sent, the token sealed under MASTER_KEY in the outbox's row. The link carries it in
// its fragment (`/reset-password#token=…`), which browsers never send to a server, so it reaches no
// access log, proxy or Referer; the page posts it with the form. A link is followed by a POST, never
// by opening it, so that a mail scanner that opens every link spends none.

export type EmailLinkPurpose = "verify_email" | "reset_password";

const MINUTE_MS = 60_000;

/** How long a link works: a reset is short (a mailbox read later by someone else), a confirmation a day. */
export const LINK_LIFETIME_MS: Record<EmailLinkPurpose, number> = { verify_email: 24 * 60 * MINUTE_MS, reset_password: 30 * MINUTE_MS };

/** The page a link opens. */
export const LINK_PAGE: Record<EmailLinkPurpose, string> = { verify_email: "/verify-email", reset_password: "/reset-password" };

/** What the sealed token is bound to: its outbox row, so a token copied into another row fails to open. */
export const outboxTokenBinding = (outboxId: string) => `outbox-email:${outboxId}`;

/**
 * The statements that make a new link of `purpose` for the account and put its mail in the
 * outbox; run them in one transaction. An older link of the same purpose, still unused, is void
 * from then on: only the latest mail works.
 */
export function newEmailLinkStatements(cfg: Config, prisma: Database, user: { id: string; email: string }, purpose: EmailLinkPurpose, now: Date) {
  const token = randomSecret();
  const linkId = randomId();
  const outboxId = randomId();
  return [
    // The account's row first: two requests at once take turns (PostgreSQL READ COMMITTED too), so
    // the second voids the first's link and only the latest works.
    prisma.$executeRaw`UPDATE "User" SET "email" = "email" WHERE "id" = ${user.id}`,
    prisma.emailLink.updateMany({ where: { userId: user.id, purpose, usedAt: null, voidedAt: null }, data: { voidedAt: now } }),
    prisma.emailLink.create({
      data: { id: linkId, userId: user.id, purpose, tokenHash: hashSecret(token), email: user.email, createdAt: now, expiresAt: new Date(now.getTime() + LINK_LIFETIME_MS[purpose]) },
      select: { id: true },
    }),
    prisma.outboxEmail.create({
      data: { id: outboxId, userId: user.id, kind: purpose, to: user.email, sealedToken: seal(cfg.masterKey, Buffer.from(token), outboxTokenBinding(outboxId)), emailLinkId: linkId, createdAt: now, nextAttemptAt: now },
      select: { id: true },
    }),
  ] as const;
}

export type UsableLink = { id: string; userId: string; email: string };

/**
 * The link `token` opens for `purpose`, if it may still be used; otherwise the error that says
 * why: not a link of ours, used, replaced by a newer one, or expired.
 */
export async function usableLink(prisma: Database, token: string, purpose: EmailLinkPurpose, now: Date): Promise<UsableLink> {
  const link = await prisma.emailLink.findUnique({ where: { tokenHash: hashSecret(token) }, select: { id: true, userId: true, email: true, purpose: true, usedAt: true, voidedAt: true, expiresAt: true } });
  if (link === null || link.purpose !== purpose) throw new ApiError("email_link_invalid", "This link is not valid. Open the latest link we sent, or ask for a new one.");
  if (link.usedAt !== null) throw new ApiError("email_link_used", "This link was already used: each link works once.");
  if (link.voidedAt !== null) throw new ApiError("email_link_voided", "A newer link was sent since this one: only the latest works.");
  if (link.expiresAt <= now) throw new ApiError("email_link_expired", "This link has expired. Ask for a new one.");
  return { id: link.id, userId: link.userId, email: link.email };
}

/**
 * The statement that spends the link, if it is still usable at `now`, marking it with `useId`:
 * the statements after it in the transaction act only where the link bears this use's mark, so
 * of two requests with one link exactly one changes anything.
 */
export function spendLinkStatement(prisma: Database, linkId: string, useId: string, now: Date) {
  return prisma.emailLink.updateMany({ where: { id: linkId, usedAt: null, voidedAt: null, expiresAt: { gt: now } }, data: { usedAt: now, useId } });
}

/** Why a link could not be spent after it was found usable: used, replaced or expired meanwhile. */
export async function spentMeanwhile(prisma: Database, token: string, purpose: EmailLinkPurpose, now: Date): Promise<ApiError> {
  try {
    await usableLink(prisma, token, purpose, now);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  return new ApiError("email_link_used", "This link was already used: each link works once.");
}
