import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import { passkeyRemovedRecord } from "../activity/record-activity";
import { passwordsOn } from "../auth/account-policy";
import type { Config } from "../config";
import { db, statementsInOneTransaction } from "../database/db";
import { ApiError, notFound } from "../errors";
import { keepsAWayInCondition, lockAccount } from "../identity/manage-identities";
import { requireStepUp } from "./step-up";

// The settings page's passkeys: the list, removing one, and the switch "approvals need a passkey".

export type PasskeySummary = { id: string; name: string; createdAt: Date; lastUsedAt: Date | null };

export async function listPasskeys(userId: string): Promise<PasskeySummary[]> {
  const prisma = await db();
  return prisma.passkey.findMany({ where: { userId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { id: true, name: true, createdAt: true, lastUsedAt: true } });
}

/** A passkey added this recently is named after a password change or signing the other sessions out. */
export const RECENT_PASSKEY_MS = 24 * 60 * 60_000;

/**
 * What the person reviews after changing the password or signing the other sessions out: a
 * passkey signs in without the password, so one added by someone who held a session outlives
 * both. The account's passkeys, and those added in the last RECENT_PASSKEY_MS.
 */
export async function passkeysToReview(userId: string, now = Date.now()): Promise<{ passkeys: PasskeySummary[]; recent: PasskeySummary[] }> {
  const passkeys = await listPasskeys(userId);
  return { passkeys, recent: passkeys.filter((passkey) => passkey.createdAt.getTime() > now - RECENT_PASSKEY_MS) };
}

/**
 * Removes one of the account's passkeys, recorded in its activity in the same transaction. The
 * last one stays while approvals need a passkey (last_passkey): the setting would lock every
 * approval out; and while it is the account's one way to sign in (last_sign_in_method: no
 * password, no identity provider).
 */
export async function removePasskey(cfg: Config, userId: string, passkeyId: string): Promise<string> {
  const prisma = await db();
  const passkey = await prisma.passkey.findFirst({ where: { id: passkeyId, userId }, select: { name: true } });
  if (passkey === null) throw notFound("You have no passkey with this id.");
  const needed = (await prisma.passkeyApprovals.count({ where: { userId } })) > 0;
  if (needed && (await prisma.passkey.count({ where: { userId } })) === 1) {
    throw new ApiError("last_passkey", "This is your last passkey and your approvals need one. Turn that off first, or add another passkey.");
  }
  // The account keeps a way to sign in (lib/identity/manage-identities.ts): decided in the delete.
  // The event is written after it, if the passkey is gone; of two removals at once, one event
  // stays (ON CONFLICT DO NOTHING).
  const [, removed] = await statementsInOneTransaction([
    lockAccount(prisma, userId),
    prisma.$executeRaw`DELETE FROM "Passkey" WHERE "id" = ${passkeyId} AND "userId" = ${userId} AND ${keepsAWayInCondition(userId, { passkeyId }, passwordsOn(cfg))}`,
    passkeyRemovedRecord(prisma, userId, passkeyId, passkey.name),
  ]);
  if (removed === 0 && (await prisma.passkey.count({ where: { id: passkeyId } })) > 0) {
    throw new ApiError("last_sign_in_method", "This passkey is your last way to sign in. Link your identity provider first.");
  }
  return passkey.name;
}

/** Turns "approvals need a passkey" on (the account must have a passkey) or off (with a step-up assertion for "settings"). */
export async function setApprovalsNeedPasskey(cfg: Config, userId: string, required: boolean, assertion: AuthenticationResponseJSON | undefined): Promise<void> {
  const prisma = await db();
  if (required) {
    if ((await prisma.passkey.count({ where: { userId } })) === 0) throw new ApiError("no_passkey", "Add a passkey before approvals can need one.");
    await prisma.passkeyApprovals.upsert({ where: { userId }, create: { userId, createdAt: new Date() }, update: {} });
    return;
  }
  await requireStepUp(cfg, userId, "settings", assertion);
  await prisma.passkeyApprovals.deleteMany({ where: { userId } });
}
