import { passwordChangedRecord } from "../activity/record-activity";
import type { Config } from "../config";
import { db, statementsInOneTransaction } from "../database/db";
import { ApiError } from "../errors";
import { spendLinkStatement, spentMeanwhile, usableLink } from "../email/email-links";
import { noticeStatements } from "../email/notices";
import { nudgeOutbox } from "../email/outbox";
import { requireMail, sendEmailLink } from "../email/send-link";
import { addressSubject, consumeRateLimit } from "../limits/rate-limit";
import { limitRules } from "../limits/rules";
import type { RequestOrigin } from "../request-origin";
import { randomId } from "../secrets";
import { requirePasswordsOn } from "./account-policy";
import { hashPassword } from "./passwords";
import type { PasswordReset, PasswordResetRequest } from "./schemas";

// "Forgot password?": a link mailed to the account's address sets a new password (OWASP's
// Forgot Password Cheat Sheet): the answer to a request is the same whether or not the email
// has an account, requests are limited per address and mails per account, the link works once
// and for 30 minutes, and a newer one voids it (lib/email/email-links.ts). Setting the password
// ends every session, confirms the address the link went to, and is recorded in the activity
// with a notice to the address. On an account whose address was never confirmed, it also ends
// every other way in (see resetPassword).

/** Whether "Forgot password?" is offered: passwords are used and mail is sent. */
export const passwordResetOffered = (cfg: Config) => cfg.accounts.localPasswords && cfg.email !== null;

/**
 * Mails a reset link to the account with `email`, if there is one with a password. Answers the
 * same either way, and past the account's mail limit sends nothing and still answers the same.
 */
export async function requestPasswordReset(cfg: Config, form: PasswordResetRequest, origin: RequestOrigin): Promise<void> {
  requirePasswordsOn(cfg);
  requireMail(cfg);
  await consumeRateLimit(limitRules(cfg).resetRequestsPerAddress, addressSubject(origin.address));
  const prisma = await db();
  const user = await prisma.user.findUnique({ where: { email: form.email }, select: { id: true, email: true, passwordHash: true } });
  // An account made by the identity provider has no password to reset: it signs in there.
  if (user === null || user.passwordHash === null) return;
  try {
    await sendEmailLink(cfg, user, "reset_password");
  } catch (error) {
    if (error instanceof ApiError && error.code === "rate_limited") return;
    throw error;
  }
}

/**
 * Sets the password of the link's account and signs out every session; the link is spent in the
 * same transaction. `firstConfirmation`: the address was confirmed by this reset, and every other
 * way into the account (passkeys, the identity provider, access tokens, OAuth logins) ended.
 */
export async function resetPassword(cfg: Config, form: PasswordReset, origin: RequestOrigin): Promise<{ firstConfirmation: boolean }> {
  requirePasswordsOn(cfg);
  // Each attempt costs a password hash, as a sign-in does.
  await consumeRateLimit(limitRules(cfg).authPerAddress, addressSubject(origin.address));
  const prisma = await db();
  const now = new Date();
  const link = await usableLink(prisma, form.token, "reset_password", now);
  const newHash = await hashPassword(cfg, form.password);
  const useId = randomId();
  // This reset, once its new hash is stored; and this reset confirming an address that was not
  // confirmed until now (nothing else sets emailVerifiedAt to this very moment).
  const reset = { passwordHash: newHash };
  const firstConfirmed = { passwordHash: newHash, emailVerifiedAt: now };
  const [spent, , confirmed] = await statementsInOneTransaction([
    spendLinkStatement(prisma, link.id, useId, now),
    prisma.user.updateMany({ where: { id: link.userId, emailLinks: { some: { id: link.id, useId } } }, data: { passwordHash: newHash } }),
    // The link reached the address it was sent to: that address is the account's.
    prisma.user.updateMany({ where: { id: link.userId, email: link.email, emailVerifiedAt: null, ...reset }, data: { emailVerifiedAt: now } }),
    // An account whose address nobody had confirmed may have been made, or used, by someone
    // else before its owner came ("pre-account hijacking"): a passkey, an identity at the provider,
    // an access token or an OAuth login they added would outlive the reset. The owner proves the
    // address now: every way in but the new password ends with it.
    prisma.passkey.deleteMany({ where: { userId: link.userId, user: { is: firstConfirmed } } }),
    prisma.passkeyApprovals.deleteMany({ where: { userId: link.userId, user: { is: firstConfirmed } } }),
    prisma.federatedIdentity.deleteMany({ where: { userId: link.userId, user: { is: firstConfirmed } } }),
    prisma.accessToken.updateMany({ where: { userId: link.userId, revokedAt: null, user: { is: firstConfirmed } }, data: { revokedAt: now } }),
    prisma.oAuthLogin.updateMany({ where: { userId: link.userId, revokedAt: null, user: { is: firstConfirmed } }, data: { revokedAt: now, revokedReason: "reset" } }),
    prisma.session.deleteMany({ where: { userId: link.userId, user: { is: reset } } }),
    passwordChangedRecord(prisma, link.userId, newHash, useId, now, origin, "password_reset"),
    ...noticeStatements(cfg, prisma, link.userId, "password_reset", useId),
  ]);
  if (spent.count !== 1) throw await spentMeanwhile(prisma, form.token, "reset_password", now);
  nudgeOutbox(cfg);
  return { firstConfirmation: confirmed.count === 1 };
}
