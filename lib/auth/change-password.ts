import { passwordChangedRecord } from "../activity/record-activity";
import type { Config } from "../config";
import { db, statementsInOneTransaction } from "../database/db";
import { noticeStatements } from "../email/notices";
import { nudgeOutbox } from "../email/outbox";
import { ApiError } from "../errors";
import type { RequestOrigin } from "../request-origin";
import { randomId } from "../secrets";
import { checkPassword } from "./password-check";
import { hashPassword } from "./passwords";
import type { PasswordChange } from "./schemas";
import { replacementSession, type SessionUser } from "./sessions";

/**
 * Changes the signed-in person's password (/settings/password) and signs out every session, as a
 * bank does: whoever knew the old password or held a session is out, a copy of this browser's
 * cookie included; this browser gets a new session in its place. Returns its token (null if this
 * browser's session ended meanwhile). The current password is checked under sign-in's limits,
 * slot and wait (lib/auth/password-check.ts), so a borrowed session guesses no faster than the
 * sign-in form. The new hash replaces the one checked only if it is still there, and the
 * sessions and the activity event are written in the same transaction, each on the condition
 * that the new hash is stored.
 */
export async function changePassword(cfg: Config, user: SessionUser, change: PasswordChange, origin: RequestOrigin): Promise<string | null> {
  const prisma = await db();
  const { passwordHash } = await prisma.user.findUniqueOrThrow({ where: { id: user.id }, select: { passwordHash: true } });
  if (passwordHash === null) throw new ApiError("no_password", "This account has no password to change: it signs in through its identity provider or a passkey.");
  const holder = await checkPassword(cfg, user.email, change.current_password, origin);
  if (holder === null) throw new ApiError("wrong_password", "The current password is not right.");
  const newHash = await hashPassword(cfg, change.new_password);
  const session = replacementSession(prisma, user.sessionId, origin, newHash);
  const changeId = randomId();
  const [changed, started] = await statementsInOneTransaction([
    prisma.user.updateMany({ where: { id: user.id, passwordHash: holder.passwordHash }, data: { passwordHash: newHash } }),
    session.insert,
    prisma.session.deleteMany({ where: { userId: user.id, id: { not: session.id }, user: { is: { passwordHash: newHash } } } }),
    passwordChangedRecord(prisma, user.id, newHash, changeId, new Date(), origin),
    ...noticeStatements(cfg, prisma, user.id, "password_changed", changeId),
  ]);
  nudgeOutbox(cfg);
  // Changed meanwhile by another request: this one changed nothing.
  if (changed.count === 0) throw new ApiError("wrong_password", "The password was changed meanwhile. Type the current one again.");
  return started === 1 ? session.token : null;
}
