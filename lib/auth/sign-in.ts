import type { Config } from "../config";
import { db } from "../db";
import { ApiError } from "../errors";
import { addressSubject, assertUnderLimit, consumeRateLimit, countedEvents, recordEvent } from "../limits/rate-limit";
import { limitRules } from "../limits/rules";
import type { RequestOrigin } from "../request-origin";
import { unknownUserHash, verifyPassword } from "./passwords";
import type { Credentials } from "./schemas";
import { startSession } from "./sessions";

const MAX_SIGN_IN_DELAY_MS = 10_000;

/** The wait before an attempt on an account with `failures` recent failures: 0, then 1 s, 2 s, 4 s … 10 s. */
export function signInDelayMs(failures: number, threshold: number): number {
  return failures < threshold ? 0 : Math.min(MAX_SIGN_IN_DELAY_MS, 1000 * 2 ** (failures - threshold));
}

/**
 * Signs in with email and password; returns the new session's Set-Cookie value. One message
 * for an unknown email and a wrong password, and the same scrypt work for both. Guessing is
 * slowed per account (a growing wait, never a lockout: the owner can always sign in) and
 * stopped per account and address.
 */
export async function signIn(cfg: Config, credentials: Credentials, origin: RequestOrigin): Promise<string> {
  const rules = limitRules(cfg);
  const address = addressSubject(origin.address);
  // Every attempt counts against its address: each costs a password hash.
  await consumeRateLimit(rules.authPerAddress, address);
  const accountAndAddress = `${credentials.email} ${address}`;
  await assertUnderLimit(rules.signInFailuresPerAccountAndAddress, accountAndAddress);
  const failures = await countedEvents(rules.signInFailuresPerAccount, credentials.email);
  const delayMs = signInDelayMs(failures, cfg.limits.signInFailuresPer15Minutes);
  if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
  const prisma = await db();
  const user = await prisma.user.findUnique({ where: { email: credentials.email }, select: { id: true, passwordHash: true } });
  const matches = await verifyPassword(credentials.password, user?.passwordHash ?? (await unknownUserHash()));
  if (user !== null && matches) return startSession(cfg, user.id);
  await recordEvent(rules.signInFailuresPerAccountAndAddress, accountAndAddress);
  await recordEvent(rules.signInFailuresPerAccount, credentials.email);
  throw new ApiError("invalid_credentials", "The email or password is not right.");
}
