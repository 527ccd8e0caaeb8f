import type { Config } from "../config";
import { db } from "../database/db";
import { releaseSlot, takeSlot } from "../limits/in-flight";
import { addressSubject, consumeRateLimit, countedEvents, giveBack, recordEvent } from "../limits/rate-limit";
import { limitRules } from "../limits/rules";
import type { RequestOrigin } from "../request-origin";
import { requirePasswordsOn } from "./account-policy";
import { unknownUserHash, verifyPassword } from "./passwords";

// The one place a password is checked: signing in, changing the password, and adding a passkey to
// an account that has none (lib/passkeys/register-passkey.ts). Each is a way to try a guess, so
// each goes through the same limits, keyed by the account's email: a guess through one counts
// against the others, and a held session guesses no faster than the sign-in form.

const MAX_SIGN_IN_DELAY_MS = 10_000;
// How long an attempt may hold its account's in-flight slot beyond its wait: far more than one
// password hash takes. A crashed instance's slot frees itself after that.
const PASSWORD_CHECK_BUDGET_MS = 10_000;

/** The wait before an attempt on an account with `failures` recent failures: 0, then 1 s, 2 s, 4 s … 10 s. */
export function signInDelayMs(failures: number, threshold: number): number {
  return failures < threshold ? 0 : Math.min(MAX_SIGN_IN_DELAY_MS, 1000 * 2 ** (failures - threshold));
}

/** The account whose password was given, and the hash it matched (a change replaces only that one). */
export type PasswordHolder = { id: string; passwordHash: string };

/**
 * Whether `password` is the password of the account `email`: its holder, or null, after the same
 * scrypt work for an unknown email. Guessing is slowed per account (a growing wait) and stopped
 * per account and address. Checks on one account run one at a time across all instances (each
 * after its wait; one more is refused with rate_limited), so guessing from many addresses, or
 * through several forms, at once gains nothing (the price is in SECURITY.md).
 */
export async function checkPassword(cfg: Config, email: string, password: string, origin: RequestOrigin): Promise<PasswordHolder | null> {
  requirePasswordsOn(cfg);
  const rules = limitRules(cfg);
  const address = addressSubject(origin.address);
  // Every attempt counts against its address: each costs a password hash.
  await consumeRateLimit(rules.authPerAddress, address);
  // A wrong password's unit is taken before the check, so concurrent guesses cannot overshoot.
  const failureUnit = await consumeRateLimit(rules.signInFailuresPerAccountAndAddress, `${email} ${address}`);
  let wrongPassword = false;
  try {
    // The slot first, then the failures: a failure recorded by the attempt that held the slot
    // before is in this attempt's wait.
    const lease = await takeSlot(rules.signInsInFlightPerAccount, email, MAX_SIGN_IN_DELAY_MS + PASSWORD_CHECK_BUDGET_MS);
    try {
      const failures = await countedEvents(rules.signInFailuresPerAccount, email);
      const delayMs = signInDelayMs(failures, cfg.limits.signInFailuresPer15Minutes);
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      const prisma = await db();
      const user = await prisma.user.findUnique({ where: { email }, select: { id: true, passwordHash: true } });
      // An account without a password (it signs in through its identity provider) is checked
      // like an unknown email: the same work, and never a match.
      const matches = await verifyPassword(password, user?.passwordHash ?? (await unknownUserHash(cfg)));
      if (user !== null && user.passwordHash !== null && matches) return { id: user.id, passwordHash: user.passwordHash };
      wrongPassword = true;
      // Counted before the slot is released, so the next attempt's wait includes this failure.
      await recordEvent(rules.signInFailuresPerAccount, email);
      return null;
    } finally {
      await releaseSlot(lease);
    }
  } finally {
    // Only wrong passwords count against the account and address.
    if (!wrongPassword) await giveBack(failureUnit);
  }
}
