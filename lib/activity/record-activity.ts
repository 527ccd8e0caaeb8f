import { db, type Database } from "../database/db";
import { Prisma } from "../generated/prisma/client";
import type { RequestOrigin } from "../request-origin";
import { randomId } from "../secrets";
import type { ActivityKind } from "./activity-kinds";

// The statements that write an account's activity (lib/activity/activity-kinds.ts). Each one
// copies the event from the rows of the change it records, and only if those rows show that
// change: run in one transaction with the change's own conditional statement
// (inOneTransaction, lib/database/db.ts), it writes its event if and only if the change commits. An
// event exists at most once per (account, kind, subject): a repeated or lost attempt at the
// same change inserts nothing (ON CONFLICT DO NOTHING, in SQLite and PostgreSQL alike), so none
// of these statements fails in the normal course.

/** A statement recording an event; it runs when awaited or passed to inOneTransaction. */
export type ActivityRecord = Prisma.PrismaPromise<number>;

const COLUMN_NAMES = ["id", "userId", "kind", "subjectId", "occurredAt", "projectId", "projectName", "sender", "senderDevice", "senderOs", "senderIp", "observedIp", "observedUserAgent", "tokenName", "iv", "decidedBy"];
const columnList = (names: string[]) => Prisma.raw(`(${names.map((name) => `"${name}"`).join(", ")})`);

/** Every column an event has, in the order the statements here and in sweep-activity.ts give them. */
export const ACTIVITY_COLUMNS = columnList(COLUMN_NAMES);
/** And the access lifetime an approval gave, which only an approval has. */
const ACTIVITY_COLUMNS_WITH_LIFETIME = columnList([...COLUMN_NAMES, "accessLifetimeSeconds"]);

/** Typed, so that a kind written in a statement is one the page knows. */
export const activityKind = (value: ActivityKind): string => value;

/**
 * The init's approval by `userId`, as the approving update left the row; `origin`: the approving
 * browser's request (the client's own address is in the init's other events).
 */
export function initApprovedRecord(prisma: Database, initId: string, userId: string, origin: RequestOrigin): ActivityRecord {
  // The one event with the access lifetime the person chose: its columns, and that one.
  return prisma.$executeRaw`
    INSERT INTO "ActivityEvent" ${ACTIVITY_COLUMNS_WITH_LIFETIME}
    SELECT ${randomId()}, u."id", ${activityKind("init_approved")}, i."id", i."decidedAt", p."id", p."name", i."sender", i."senderDevice", i."senderOs", i."senderIp", ${origin.address}, ${origin.userAgent}, NULL, NULL, u."email", i."accessLifetimeSeconds"
    FROM "Init" i JOIN "User" u ON u."id" = i."approvedById" LEFT JOIN "Project" p ON p."id" = i."projectId"
    WHERE i."id" = ${initId} AND i."status" = 'done' AND i."approvedById" = ${userId}
    ON CONFLICT DO NOTHING`;
}

/** The init's denial by `userId`; `origin`: the denying browser's request. */
export function initDeniedRecord(prisma: Database, initId: string, userId: string, origin: RequestOrigin): ActivityRecord {
  return prisma.$executeRaw`
    INSERT INTO "ActivityEvent" ${ACTIVITY_COLUMNS}
    SELECT ${randomId()}, u."id", ${activityKind("init_denied")}, i."id", i."decidedAt", NULL, NULL, i."sender", i."senderDevice", i."senderOs", i."senderIp", ${origin.address}, ${origin.userAgent}, NULL, NULL, u."email"
    FROM "Init" i JOIN "User" u ON u."id" = i."deniedById"
    WHERE i."id" = ${initId} AND i."status" = 'denied' AND i."deniedById" = ${userId}
    ON CONFLICT DO NOTHING`;
}

/** The access token of an approved init, collected by the client holding its secret (`origin`: that request's), for the approver. */
export function tokenCollectedRecord(prisma: Database, initId: string, tokenId: string, origin: RequestOrigin): ActivityRecord {
  return prisma.$executeRaw`
    INSERT INTO "ActivityEvent" ${ACTIVITY_COLUMNS}
    SELECT ${randomId()}, t."userId", ${activityKind("token_collected")}, i."id", t."createdAt", p."id", p."name", i."sender", i."senderDevice", i."senderOs", i."senderIp", ${origin.address}, ${origin.userAgent}, t."name", NULL, NULL
    FROM "Init" i JOIN "AccessToken" t ON t."id" = i."accessTokenId" LEFT JOIN "Project" p ON p."id" = i."projectId"
    WHERE i."id" = ${initId} AND t."id" = ${tokenId}
    ON CONFLICT DO NOTHING`;
}

/**
 * A new link (`address`: where its request came from). The client's report at Create Init is
 * copied from the init whose pickup issued the link's token, while that init is kept.
 */
export function linkCreatedRecord(prisma: Database, linkId: string, address: string | null): ActivityRecord {
  return prisma.$executeRaw`
    INSERT INTO "ActivityEvent" ${ACTIVITY_COLUMNS}
    SELECT ${randomId()}, t."userId", ${activityKind("link_created")}, l."id", l."createdAt", p."id", p."name", i."sender", i."senderDevice", i."senderOs", i."senderIp", ${address}, l."userAgent", t."name", l."iv", NULL
    FROM "ProjectLink" l JOIN "AccessToken" t ON t."id" = l."accessTokenId" JOIN "Project" p ON p."id" = l."projectId" LEFT JOIN "Init" i ON i."accessTokenId" = t."id"
    WHERE l."id" = ${linkId}
    ON CONFLICT DO NOTHING`;
}

/**
 * A link revoked by `userId` (its project's owner, an admin of its team, or the person whose token made it); a team's admins see it too.
 * `allowed`: the revocation's own permission, as a condition on the link `l`, its token `t` and its project `p`. A revoked link
 * alone does not show that this request revoked it: a team member refused another's link that an admin revoked meanwhile would
 * otherwise be recorded as having revoked it (tests/api/teams/team-races.test.ts).
 */
export function linkRevokedRecord(prisma: Database, linkId: string, userId: string, allowed: Prisma.Sql): ActivityRecord {
  return prisma.$executeRaw`
    INSERT INTO "ActivityEvent" ("id", "userId", "kind", "subjectId", "occurredAt", "projectId", "projectName", "observedUserAgent", "tokenName", "iv", "decidedBy", "teamId")
    SELECT ${randomId()}, u."id", ${activityKind("link_revoked")}, l."id", l."revokedAt", p."id", p."name", l."userAgent", t."name", l."iv", u."email", p."teamId"
    FROM "ProjectLink" l JOIN "AccessToken" t ON t."id" = l."accessTokenId" JOIN "Project" p ON p."id" = l."projectId" JOIN "User" u ON u."id" = ${userId}
    WHERE l."id" = ${linkId} AND l."revokedAt" IS NOT NULL AND ${allowed}
    ON CONFLICT DO NOTHING`;
}

/** An access token its owner made on the settings page, or revoked: the event is dated by the token's own column. */
export function accessTokenRecord(prisma: Database, tokenId: string, event: "access_token_created" | "access_token_revoked"): ActivityRecord {
  const at = event === "access_token_created" ? Prisma.sql`t."createdAt"` : Prisma.sql`t."revokedAt"`;
  return prisma.$executeRaw`
    INSERT INTO "ActivityEvent" ${ACTIVITY_COLUMNS}
    SELECT ${randomId()}, u."id", ${activityKind(event)}, t."id", ${at}, p."id", p."name", NULL, NULL, NULL, NULL, NULL, NULL, t."name", NULL, u."email"
    FROM "AccessToken" t JOIN "User" u ON u."id" = t."userId" LEFT JOIN "Project" p ON p."id" = t."projectId"
    WHERE t."id" = ${tokenId} AND ${at} IS NOT NULL
    ON CONFLICT DO NOTHING`;
}

/** A resource-server credential its owner made on the settings page, or revoked: named as the person named it, dated by its own column. */
export function resourceServerRecord(prisma: Database, credentialId: string, event: "resource_server_created" | "resource_server_revoked"): ActivityRecord {
  const at = event === "resource_server_created" ? Prisma.sql`c."createdAt"` : Prisma.sql`c."revokedAt"`;
  return prisma.$executeRaw`
    INSERT INTO "ActivityEvent" ("id", "userId", "kind", "subjectId", "occurredAt", "tokenName", "decidedBy")
    SELECT ${randomId()}, u."id", ${activityKind(event)}, c."id", ${at}, c."name", u."email"
    FROM "ResourceServerCredential" c JOIN "User" u ON u."id" = c."userId"
    WHERE c."id" = ${credentialId} AND ${at} IS NOT NULL
    ON CONFLICT DO NOTHING`;
}

/** A passkey added on the settings page (after its row is written), from `origin`: the event names the passkey and is dated now. */
export function passkeyRecord(prisma: Database, passkeyId: string, event: "passkey_added", origin: RequestOrigin): ActivityRecord {
  return prisma.$executeRaw`
    INSERT INTO "ActivityEvent" ("id", "userId", "kind", "subjectId", "occurredAt", "observedIp", "observedUserAgent", "decidedBy", "passkeyName")
    SELECT ${randomId()}, u."id", ${activityKind(event)}, k."id", ${new Date()}, ${origin.address}, ${origin.userAgent}, u."email", k."name"
    FROM "Passkey" k JOIN "User" u ON u."id" = k."userId"
    WHERE k."id" = ${passkeyId}
    ON CONFLICT DO NOTHING`;
}

/**
 * The passkey `passkeyId`, named `name`, removed from `userId`'s account: run after the
 * conditional delete, in its transaction, it is written only if the passkey is gone; once.
 */
export function passkeyRemovedRecord(prisma: Database, userId: string, passkeyId: string, name: string): ActivityRecord {
  return prisma.$executeRaw`
    INSERT INTO "ActivityEvent" ("id", "userId", "kind", "subjectId", "occurredAt", "decidedBy", "passkeyName")
    SELECT ${randomId()}, u."id", ${activityKind("passkey_removed")}, ${passkeyId}, ${new Date()}, u."email", ${name}
    FROM "User" u
    WHERE u."id" = ${userId} AND NOT EXISTS (SELECT 1 FROM "Passkey" k WHERE k."id" = ${passkeyId})
    ON CONFLICT DO NOTHING`;
}

/**
 * A signed-in person opened the page of a pending init: the init is then in their activity,
 * and so is its expiry if no one decides it (lib/activity/sweep-activity.ts). A view changes
 * nothing else, so this stands alone; once per (account, init).
 */
export async function recordInitOpened(userId: string, initId: string): Promise<void> {
  const prisma = await db();
  await prisma.$executeRaw`
    INSERT INTO "ActivityEvent" ${ACTIVITY_COLUMNS}
    SELECT ${randomId()}, u."id", ${activityKind("init_opened")}, i."id", ${new Date()}, NULL, NULL, i."sender", i."senderDevice", i."senderOs", i."senderIp", i."observedIp", i."observedUserAgent", NULL, NULL, NULL
    FROM "Init" i JOIN "User" u ON u."id" = ${userId}
    WHERE i."id" = ${initId} AND i."status" = 'pending'
    ON CONFLICT DO NOTHING`;
}

/**
 * An OAuth login revoked (lib/oauth/refresh-tokens.ts): by the reuse of a retired refresh token,
 * or by its client (RFC 7009); `origin`: the request that presented the token. The client is the
 * login's client_id; the token name is its latest access token's.
 */
export function oauthLoginRevokedRecord(prisma: Database, loginId: string, event: "oauth_refresh_reused" | "oauth_login_revoked", origin: RequestOrigin): ActivityRecord {
  const reason = event === "oauth_refresh_reused" ? "reuse" : "revocation";
  return prisma.$executeRaw`
    INSERT INTO "ActivityEvent" ${ACTIVITY_COLUMNS}
    SELECT ${randomId()}, l."userId", ${activityKind(event)}, l."id", l."revokedAt", p."id", p."name", l."clientId", NULL, NULL, NULL, ${origin.address}, ${origin.userAgent}, t."name", NULL, NULL
    FROM "OAuthLogin" l JOIN "Project" p ON p."id" = l."projectId" LEFT JOIN "RefreshToken" r ON r."id" = l."currentTokenId" LEFT JOIN "AccessToken" t ON t."id" = r."accessTokenId"
    WHERE l."id" = ${loginId} AND l."revokedAt" IS NOT NULL AND l."revokedReason" = ${reason}
    ON CONFLICT DO NOTHING`;
}

/**
 * The account's password changed to `newHash` (`kind`: on the settings page, or reset through a
 * mailed link), from `origin` (the changing browser's request);
 * `changeId` is the change's own subject, as each change is an event of its own. Written only if
 * the account holds the new hash, in the change's transaction.
 */
export function passwordChangedRecord(
  prisma: Database,
  userId: string,
  newHash: string,
  changeId: string,
  at: Date,
  origin: RequestOrigin,
  kind: "password_changed" | "password_reset" = "password_changed",
): ActivityRecord {
  return prisma.$executeRaw`
    INSERT INTO "ActivityEvent" ${ACTIVITY_COLUMNS}
    SELECT ${randomId()}, u."id", ${activityKind(kind)}, ${changeId}, ${at}, NULL, NULL, NULL, NULL, NULL, NULL, ${origin.address}, ${origin.userAgent}, NULL, NULL, u."email"
    FROM "User" u
    WHERE u."id" = ${userId} AND u."passwordHash" = ${newHash}
    ON CONFLICT DO NOTHING`;
}

/**
 * `userId` reported their approval of init `initId` ("This wasn't me", lib/approvals/): the
 * event copies the approval's own (the client's report and project), dated `at`, the time of
 * every revocation it made; `origin`: the reporting browser's request. Once per init.
 */
export function approvalReportedRecord(prisma: Database, userId: string, initId: string, at: Date, origin: RequestOrigin): ActivityRecord {
  return prisma.$executeRaw`
    INSERT INTO "ActivityEvent" ${ACTIVITY_COLUMNS}
    SELECT ${randomId()}, a."userId", ${activityKind("approval_reported")}, a."subjectId", ${at}, a."projectId", a."projectName", a."sender", a."senderDevice", a."senderOs", a."senderIp", ${origin.address}, ${origin.userAgent}, NULL, NULL, a."decidedBy"
    FROM "ActivityEvent" a
    WHERE a."userId" = ${userId} AND a."kind" = ${activityKind("init_approved")} AND a."subjectId" = ${initId}
    ON CONFLICT DO NOTHING`;
}

/**
 * A sign-in through the identity provider (`subjectId`: the sign-in's own, each one an event) or
 * the provider linked to the account (the identity's id), from `origin` (the browser's callback
 * request): copied from the identity's row once it is written, naming the provider's issuer.
 */
export function identityRecord(prisma: Database, identityId: string, event: "provider_signed_in" | "provider_linked", subjectId: string, origin: RequestOrigin): ActivityRecord {
  return prisma.$executeRaw`
    INSERT INTO "ActivityEvent" ("id", "userId", "kind", "subjectId", "occurredAt", "observedIp", "observedUserAgent", "decidedBy", "provider")
    SELECT ${randomId()}, u."id", ${activityKind(event)}, ${subjectId}, ${new Date()}, ${origin.address}, ${origin.userAgent}, u."email", f."issuer"
    FROM "FederatedIdentity" f JOIN "User" u ON u."id" = f."userId"
    WHERE f."id" = ${identityId}
    ON CONFLICT DO NOTHING`;
}

/**
 * The identity `identityId` of `issuer` unlinked from `userId`'s account, from `origin`: run after
 * the conditional delete, in its transaction, it is written only if the identity is gone; once.
 */
export function identityUnlinkedRecord(prisma: Database, userId: string, identityId: string, issuer: string, origin: RequestOrigin): ActivityRecord {
  return prisma.$executeRaw`
    INSERT INTO "ActivityEvent" ("id", "userId", "kind", "subjectId", "occurredAt", "observedIp", "observedUserAgent", "decidedBy", "provider")
    SELECT ${randomId()}, u."id", ${activityKind("provider_unlinked")}, ${identityId}, ${new Date()}, ${origin.address}, ${origin.userAgent}, u."email", ${issuer}
    FROM "User" u
    WHERE u."id" = ${userId} AND NOT EXISTS (SELECT 1 FROM "FederatedIdentity" f WHERE f."id" = ${identityId})
    ON CONFLICT DO NOTHING`;
}
