import { passwordChangedRecord } from "../activity/record-activity";
import type { Config } from "../config";
import { db, statementsInOneTransaction } from "../database/db";
import { ApiError } from "../errors";
import type { RequestOrigin } from "../request-origin";
import { randomId } from "../secrets";
import { checkPassword } from "./password-check";
import { hashPassword } from "./passwords";
import type { PasswordChange } from "./schemas";
import type { SessionUser } from "./sessions";

/**
 * Changes the signed-in person's password (/settings/password) and signs out every other
 * session, as a bank does: whoever knew the old password or held another session is out. The
 * current password is checked under sign-in's limits, slot and wait (lib/auth/password-check.ts),
 * so a borrowed session guesses no faster than the sign-in form. The new
 * hash replaces the one checked only if it is still there, and the sessions and the activity
 * event are written in the same transaction, each on the condition that the new hash is stored.
 */
export async function changePassword(cfg: Config, user: SessionUser, change: PasswordChange, origin: RequestOrigin): Promise<void> {
  const holder = await checkPassword(cfg, user.email, change.current_password, origin);
  if (holder === null) throw new ApiError("wrong_password", "The current password is not right.");
  const prisma = await db();
  const newHash = await hashPassword(cfg, change.new_password);
  const changedAt = new Date();
  const [changed] = await statementsInOneTransaction([
    prisma.user.updateMany({ where: { id: user.id, passwordHash: holder.passwordHash }, data: { passwordHash: newHash } }),
    prisma.session.deleteMany({ where: { userId: user.id, id: { not: user.sessionId }, user: { is: { passwordHash: newHash } } } }),
    passwordChangedRecord(prisma, user.id, newHash, randomId(), changedAt, origin),
  ]);
  // Changed meanwhile by another request: this one changed nothing.
  if (changed.count === 0) throw new ApiError("wrong_password", "The password was changed meanwhile. Type the current one again.");
}
