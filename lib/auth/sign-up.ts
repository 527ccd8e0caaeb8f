import type { Config } from "../config";
import { db, isUniqueViolation, statementsInOneTransaction } from "../database/db";
import { newEmailLinkStatements } from "../email/email-links";
import { nudgeOutbox } from "../email/outbox";
import { ApiError } from "../errors";
import { addressSubject, consumeRateLimit } from "../limits/rate-limit";
import { limitRules } from "../limits/rules";
import type { RequestOrigin } from "../request-origin";
import { randomId } from "../secrets";
import { requirePasswordSignUpOpen } from "./account-policy";
import { hashPassword } from "./passwords";
import type { Credentials } from "./schemas";
import { startSession } from "./sessions";

/**
 * Makes an account and signs it in; returns the new session's token. With mail, a link to confirm
 * its email goes out. `invited`: the form carried a team invitation this email may accept, which
 * is what SIGN_UP=invite asks for (lib/teams/invitations.ts, invitationAdmits).
 */
export async function signUp(cfg: Config, credentials: Credentials, origin: RequestOrigin, invited: boolean): Promise<string> {
  requirePasswordSignUpOpen(cfg, invited);
  // Every attempt counts against its address: each costs a password hash.
  await consumeRateLimit(limitRules(cfg).authPerAddress, addressSubject(origin.address));
  const prisma = await db();
  const passwordHash = await hashPassword(cfg, credentials.password);
  const user = { id: randomId(), email: credentials.email };
  const createdAt = new Date();
  try {
    // With mail, the confirmation link is made with the account: both or neither.
    await statementsInOneTransaction([
      prisma.user.create({ data: { ...user, passwordHash, createdAt }, select: { id: true } }),
      ...(cfg.email === null ? [] : [...newEmailLinkStatements(cfg, prisma, user, "verify_email", createdAt)]),
    ]);
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError("email_taken", "An account with this email already exists. Sign in instead.");
    throw error;
  }
  nudgeOutbox(cfg);
  return startSession(cfg, user.id, origin);
}
