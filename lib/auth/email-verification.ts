import type { Config } from "../config";
import { db, statementsInOneTransaction } from "../database/db";
import { ApiError } from "../errors";
import { spendLinkStatement, spentMeanwhile, usableLink } from "../email/email-links";
import { sendEmailLink } from "../email/send-link";
import { randomId } from "../secrets";
import type { EmailLinkForm } from "./schemas";
import type { SessionUser } from "./sessions";

// Confirming an account's email: a link mailed at sign-up (and again on request, from Settings →
// Email) marks the address as the account's when followed. Until then the account signs in as
// usual, but a client that learns the approver's email (approved_by) is told it is not verified,
// and with EMAIL_VERIFICATION=required the account approves nothing.

/** Mails a new confirmation link to the signed-in account (the older one void); already_verified if there is nothing to confirm. */
export async function resendVerification(cfg: Config, user: SessionUser): Promise<void> {
  const prisma = await db();
  const account = await prisma.user.findUniqueOrThrow({ where: { id: user.id }, select: { id: true, email: true, emailVerifiedAt: true } });
  if (account.emailVerifiedAt !== null) throw new ApiError("already_verified", "Your email address is confirmed already.");
  await sendEmailLink(cfg, account, "verify_email");
}

/** Confirms the address the link was sent to, if it is still the account's; spends the link either way. */
export async function verifyEmail(form: EmailLinkForm): Promise<void> {
  const prisma = await db();
  const now = new Date();
  const link = await usableLink(prisma, form.token, "verify_email", now);
  const useId = randomId();
  const [spent] = await statementsInOneTransaction([
    spendLinkStatement(prisma, link.id, useId, now),
    prisma.user.updateMany({ where: { id: link.userId, email: link.email, emailVerifiedAt: null, emailLinks: { some: { id: link.id, useId } } }, data: { emailVerifiedAt: now } }),
  ]);
  if (spent.count !== 1) throw await spentMeanwhile(prisma, form.token, "verify_email", now);
}

/** Refuses an approval by an account whose email is not confirmed, where EMAIL_VERIFICATION=required. */
export async function requireVerifiedEmail(cfg: Config, userId: string): Promise<void> {
  if (cfg.email === null || !cfg.email.verificationRequired) return;
  const prisma = await db();
  const account = await prisma.user.findUniqueOrThrow({ where: { id: userId }, select: { emailVerifiedAt: true } });
  if (account.emailVerifiedAt === null) throw new ApiError("email_unverified", "Confirm your email address before you approve: we sent you a link.");
}

/** The account's address and when it was confirmed (null: not yet), for Settings → Email. */
export async function emailStatus(userId: string): Promise<{ email: string; verifiedAt: Date | null }> {
  const prisma = await db();
  const account = await prisma.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true, emailVerifiedAt: true } });
  return { email: account.email, verifiedAt: account.emailVerifiedAt };
}
