import type { Config } from "../config";
import { db, statementsInOneTransaction } from "../database/db";
import { ApiError } from "../errors";
import { consumeRateLimit } from "../limits/rate-limit";
import { limitRules } from "../limits/rules";
import { newEmailLinkStatements, type EmailLinkPurpose } from "./email-links";
import { nudgeOutbox } from "./outbox";

/** Refuses what needs mail when this service sends none (SMTP_URL unset). */
export function requireMail(cfg: Config): NonNullable<Config["email"]> {
  if (cfg.email === null) throw new ApiError("mail_off", "This service sends no email: ask its administrators to reset your password.");
  return cfg.email;
}

/**
 * Mails the account a new link of `purpose` (voiding its older one), within the account's
 * limit of link mails an hour (rate_limited past it); the mail leaves after the commit.
 */
export async function sendEmailLink(cfg: Config, user: { id: string; email: string }, purpose: EmailLinkPurpose): Promise<void> {
  requireMail(cfg);
  await consumeRateLimit(limitRules(cfg).linkMailsPerAccount, user.id);
  const prisma = await db();
  await statementsInOneTransaction([...newEmailLinkStatements(cfg, prisma, user, purpose, new Date())]);
  nudgeOutbox(cfg);
}
