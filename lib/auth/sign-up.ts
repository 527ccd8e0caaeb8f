import type { Config } from "../config";
import { db, isUniqueViolation } from "../database/db";
import { ApiError } from "../errors";
import { addressSubject, consumeRateLimit } from "../limits/rate-limit";
import { limitRules } from "../limits/rules";
import type { RequestOrigin } from "../request-origin";
import { randomId } from "../secrets";
import { requirePasswordSignUpOpen } from "./account-policy";
import { hashPassword } from "./passwords";
import type { Credentials } from "./schemas";
import { startSession } from "./sessions";

/** Makes an account and signs it in; returns the new session's token. */
export async function signUp(cfg: Config, credentials: Credentials, origin: RequestOrigin): Promise<string> {
  requirePasswordSignUpOpen(cfg);
  // Every attempt counts against its address: each costs a password hash.
  await consumeRateLimit(limitRules(cfg).authPerAddress, addressSubject(origin.address));
  const prisma = await db();
  const passwordHash = await hashPassword(cfg, credentials.password);
  let userId: string;
  try {
    const user = await prisma.user.create({
      data: { id: randomId(), email: credentials.email, passwordHash, createdAt: new Date() },
      select: { id: true },
    });
    userId = user.id;
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError("email_taken", "An account with this email already exists. Sign in instead.");
    throw error;
  }
  return startSession(cfg, userId, origin);
}
