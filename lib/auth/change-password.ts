import { passwordChangedRecord } from "../activity/record-activity";
import type { Config } from "../config";
import { db, statementsInOneTransaction } from "../database/db";
import { ApiError } from "../errors";
import { addressSubject, consumeRateLimit, giveBack } from "../limits/rate-limit";
import { limitRules } from "../limits/rules";
import type { RequestOrigin } from "../request-origin";
import { randomId } from "../secrets";
import { hashPassword, verifyPassword } from "./passwords";
import type { PasswordChange } from "./schemas";
import type { SessionUser } from "./sessions";

/**
 * Changes the signed-in person's password (/settings/password) and signs out every other
 * session, as a bank does: whoever knew the old password or held another session is out. The
 * current password is checked under sign-in's limits (per address, and wrong passwords per
 * account and address), so a borrowed session guesses no faster than the sign-in form. The new
 * hash replaces the one checked only if it is still there, and the sessions and the activity
 * event are written in the same transaction, each on the condition that the new hash is stored.
 */
export async function changePassword(cfg: Config, user: SessionUser, change: PasswordChange, origin: RequestOrigin): Promise<void> {
  const rules = limitRules(cfg);
  const address = addressSubject(origin.address);
  await consumeRateLimit(rules.authPerAddress, address);
  const failureUnit = await consumeRateLimit(rules.signInFailuresPerAccountAndAddress, `${user.email} ${address}`);
  const prisma = await db();
  const { passwordHash: oldHash } = await prisma.user.findUniqueOrThrow({ where: { id: user.id }, select: { passwordHash: true } });
  if (oldHash === null) {
    await giveBack(failureUnit);
    throw new ApiError("no_password", "This account has no password to change: it signs in through its identity provider or a passkey.");
  }
  if (!(await verifyPassword(change.current_password, oldHash))) {
    throw new ApiError("wrong_password", "The current password is not right.");
  }
  await giveBack(failureUnit);
  const newHash = await hashPassword(cfg, change.new_password);
  const changedAt = new Date();
  const [changed] = await statementsInOneTransaction([
    prisma.user.updateMany({ where: { id: user.id, passwordHash: oldHash }, data: { passwordHash: newHash } }),
    prisma.session.deleteMany({ where: { userId: user.id, id: { not: user.sessionId }, user: { is: { passwordHash: newHash } } } }),
    passwordChangedRecord(prisma, user.id, newHash, randomId(), changedAt, origin),
  ]);
  // Changed meanwhile by another request: this one changed nothing.
  if (changed.count === 0) throw new ApiError("wrong_password", "The password was changed meanwhile. Type the current one again.");
}
