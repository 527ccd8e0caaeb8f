import { identityUnlinkedRecord } from "../activity/record-activity";
import { passwordsOn } from "../auth/account-policy";
import type { Config } from "../config";
import { db, statementsInOneTransaction, type Database } from "../database/db";
import { Prisma } from "../generated/prisma/client";
import { ApiError, notFound } from "../errors";
import type { RequestOrigin } from "../request-origin";
import { RANDOM_ID_PATTERN } from "../secrets";

// The settings page's identity provider: the account's linked identities, and unlinking one.
// An account keeps a way to sign in: an identity is unlinked, or a passkey removed
// (lib/passkeys/manage-passkeys.ts), only while the account has a password, or another passkey or
// identity; decided in the statement that deletes, after the account's row is locked.

export type IdentitySummary = { id: string; issuer: string; email: string | null; emailVerified: boolean; createdAt: Date; lastUsedAt: Date | null };

/** The ways an account signs in: whether it has a password, its passkeys' count and its identities, oldest first. */
export type SignInMethods = { password: boolean; passkeys: number; identities: IdentitySummary[] };

/** `passwords`: whether passwords sign in here at all (LOCAL_PASSWORDS); off, a stored one is no way in. */
export async function signInMethods(userId: string, passwords: boolean): Promise<SignInMethods> {
  const prisma = await db();
  const user = await prisma.user.findUniqueOrThrow({
    where: { id: userId },
    select: {
      passwordHash: true,
      _count: { select: { passkeys: true } },
      identities: { orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { id: true, issuer: true, email: true, emailVerified: true, createdAt: true, lastUsedAt: true } },
    },
  });
  return { password: passwords && user.passwordHash !== null, passkeys: user._count.passkeys, identities: user.identities };
}

/** Whether the account keeps a way to sign in without the identity `identityId`. */
export const keepsAWayIn = (methods: SignInMethods, identityId: string) =>
  methods.password || methods.passkeys > 0 || methods.identities.some((identity) => identity.id !== identityId);

/**
 * The condition, in SQL, that the account `userId` keeps a way to sign in without the passkey or
 * identity named: a password (where passwords sign in), another passkey, or another identity.
 */
export function keepsAWayInCondition(userId: string, without: { passkeyId: string } | { identityId: string }, passwords: boolean): Prisma.Sql {
  const passkeyId = "passkeyId" in without ? without.passkeyId : "";
  const identityId = "identityId" in without ? without.identityId : "";
  return Prisma.sql`EXISTS (
    SELECT 1 FROM "User" u WHERE u."id" = ${userId} AND (
      ${passwords ? Prisma.sql`u."passwordHash" IS NOT NULL` : Prisma.sql`1 = 0`}
      OR EXISTS (SELECT 1 FROM "Passkey" k WHERE k."userId" = u."id" AND k."id" <> ${passkeyId})
      OR EXISTS (SELECT 1 FROM "FederatedIdentity" f WHERE f."userId" = u."id" AND f."id" <> ${identityId})))`;
}

/** The statement that makes concurrent changes of one account's ways in take turns: a no-op write locks its row until the commit. */
export const lockAccount = (prisma: Database, userId: string) => prisma.$executeRaw`UPDATE "User" SET "email" = "email" WHERE "id" = ${userId}`;

/**
 * Unlinks one of the account's identities, recorded in its activity in the same transaction:
 * last_sign_in_method when it is the account's one way to sign in. The account's row is written
 * first (a no-op update), so that an unlink and the removal of a passkey or another identity of
 * the same account take turns; then the condition and the delete are one statement.
 */
export async function unlinkIdentity(cfg: Config, userId: string, identityId: string, origin: RequestOrigin): Promise<void> {
  if (!RANDOM_ID_PATTERN.test(identityId)) throw notFound("You have no linked identity with this id.");
  const prisma = await db();
  const identity = await prisma.federatedIdentity.findFirst({ where: { id: identityId, userId }, select: { issuer: true } });
  if (identity === null) throw notFound("You have no linked identity with this id.");
  const [, unlinked] = await statementsInOneTransaction([
    lockAccount(prisma, userId),
    prisma.$executeRaw`DELETE FROM "FederatedIdentity" WHERE "id" = ${identityId} AND "userId" = ${userId} AND ${keepsAWayInCondition(userId, { identityId }, passwordsOn(cfg))}`,
    identityUnlinkedRecord(prisma, userId, identityId, identity.issuer, origin),
  ]);
  // Not deleted: it is the last way in (or another request unlinked it meanwhile: then it is gone, as asked).
  if (unlinked === 0 && (await prisma.federatedIdentity.count({ where: { id: identityId } })) > 0) {
    throw new ApiError("last_sign_in_method", "This is your last way to sign in. Add a passkey first.");
  }
}
