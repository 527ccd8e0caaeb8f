import type { Config } from "../config";
import { db, statementsInOneTransaction } from "../database/db";
import { invitationMailStatement, invitationUrl } from "../email/invitation-mail";
import { nudgeOutbox } from "../email/outbox";
import { ApiError, notFound } from "../errors";
import { Prisma } from "../generated/prisma/client";
import { countedUnlessRefused } from "../limits/rate-limit";
import { limitRules } from "../limits/rules";
import { RANDOM_ID_PATTERN, hashSecret, randomId, randomSecret } from "../secrets";
import { hasRole, isTeamRole, type TeamRole } from "./roles";
import { memberWithRoleSql, teamEventRecord } from "./team-activity";
import { teamRoleOf } from "./team-access";
import { memberRole } from "./teams";

// Invitations to a team. Each is a single-use link valid 7 days whose token (256 random bits)
// the database keeps as its SHA-256 only; the admin sees the link once, and where mail is set
// up it is also mailed (sealed in the outbox's row until sent, as lib/email/email-links.ts does).
// The link carries the token in its fragment (/teams/join#token=…): it reaches no server log
// or Referer, and only the page's POST spends it. An invitation names an email: only the
// account with that email may accept it, unless the admin allowed any.

export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60_000;

export type NewInvitation = { email: string; role: TeamRole; anyEmail: boolean };

export type CreatedInvitation = { id: string; url: string; emailed: boolean };


/** Invites `email` as `role`: admins invite members and admins, owners anyone. Limited per team per hour. */
export async function inviteMember(cfg: Config, actorId: string, teamId: string, invitation: NewInvitation): Promise<CreatedInvitation> {
  const role = await memberRole(actorId, teamId);
  if (!hasRole(role, "admin")) throw new ApiError("team_role_required", "Only the team's owners and admins may invite.");
  if (invitation.role === "owner" && role !== "owner") throw new ApiError("team_role_required", "Only the team's owners may invite an owner.");
  return countedUnlessRefused(limitRules(cfg).invitationsPerTeam, teamId, async () => {
    const prisma = await db();
    const token = randomSecret();
    const id = randomId();
    const now = new Date();
    const inviter = await prisma.user.findUniqueOrThrow({ where: { id: actorId }, select: { email: true } });
    const mail = cfg.email === null ? [] : [invitationMailStatement(cfg, prisma, { outboxId: randomId(), inviterId: actorId, to: invitation.email, token, invitationId: id, now })];
    const allowed = memberWithRoleSql(teamId, actorId, invitation.role === "owner" ? ["owner"] : ["owner", "admin"]);
    // The inviter's role is checked again by the insert itself: a demotion a moment before refuses it.
    const [invited] = await statementsInOneTransaction([
      prisma.$executeRaw`
        INSERT INTO "TeamInvitation" ("id", "teamId", "email", "anyEmail", "role", "tokenHash", "invitedBy", "createdAt", "expiresAt")
        SELECT ${id}, ${teamId}, ${invitation.email}, ${invitation.anyEmail}, ${invitation.role}, ${hashSecret(token)}, ${inviter.email}, ${now}, ${new Date(now.getTime() + INVITATION_LIFETIME_MS)}
        WHERE ${allowed}`,
      teamEventRecord(prisma, { kind: "member_invited", actorId, teamId, subjectId: id, memberEmail: invitation.email, role: invitation.role }, Prisma.sql`EXISTS (SELECT 1 FROM "TeamInvitation" i WHERE i."id" = ${id})`),
      ...mail,
    ]);
    if (invited !== 1) throw new ApiError("team_role_required", "Only the team's owners and admins may invite.");
    if (mail.length > 0) nudgeOutbox(cfg);
    return { id, url: invitationUrl(cfg, token), emailed: mail.length > 0 };
  });
}

const noInvitation = () => notFound("This team has no open invitation with this id.");

const WEEK_MS = 7 * 24 * 60 * 60_000;

/** Deletes invitations that ended a week ago (kept that long so that their page says why they no longer work); returns how many. */
export async function sweepInvitations(now: number): Promise<number> {
  const prisma = await db();
  const ended = new Date(now - WEEK_MS);
  const swept = await prisma.teamInvitation.deleteMany({ where: { OR: [{ expiresAt: { lt: ended } }, { acceptedAt: { lt: ended } }, { revokedAt: { lt: ended } }] } });
  return swept.count;
}

/** Revokes an open invitation; the team's admins and owners. */
export async function revokeInvitation(actorId: string, teamId: string, invitationId: string): Promise<void> {
  if (!hasRole(await memberRole(actorId, teamId), "admin")) throw new ApiError("team_role_required", "Only the team's owners and admins may revoke invitations.");
  if (!RANDOM_ID_PATTERN.test(invitationId)) throw noInvitation();
  const prisma = await db();
  const invitation = await prisma.teamInvitation.findFirst({ where: { id: invitationId, teamId }, select: { email: true, role: true } });
  if (invitation === null || !isTeamRole(invitation.role)) throw noInvitation();
  const now = new Date();
  const [revoked] = await statementsInOneTransaction([
    prisma.$executeRaw`
      UPDATE "TeamInvitation" SET "revokedAt" = ${now}
      WHERE "id" = ${invitationId} AND "teamId" = ${teamId} AND "acceptedAt" IS NULL AND "revokedAt" IS NULL AND ${memberWithRoleSql(teamId, actorId, ["owner", "admin"])}`,
    teamEventRecord(
      prisma,
      { kind: "invitation_revoked", actorId, teamId, subjectId: invitationId, memberEmail: invitation.email, role: invitation.role },
      Prisma.sql`EXISTS (SELECT 1 FROM "TeamInvitation" i WHERE i."id" = ${invitationId} AND i."revokedAt" IS NOT NULL)`,
    ),
  ]);
  if (revoked !== 1) throw noInvitation();
}

type StoredInvitation = { id: string; teamId: string; email: string; anyEmail: boolean; role: string; invitedBy: string; expiresAt: Date; acceptedAt: Date | null; revokedAt: Date | null; team: { name: string } };

/** The invitation `token` opens while it may be accepted; otherwise the error that says why. */
async function openInvitation(token: string, now: Date): Promise<StoredInvitation & { role: TeamRole }> {
  const prisma = await db();
  const invitation = await prisma.teamInvitation.findUnique({
    where: { tokenHash: hashSecret(token) },
    select: { id: true, teamId: true, email: true, anyEmail: true, role: true, invitedBy: true, expiresAt: true, acceptedAt: true, revokedAt: true, team: { select: { name: true } } },
  });
  if (invitation === null || !isTeamRole(invitation.role)) throw new ApiError("invitation_invalid", "This invitation is not valid. Ask the team's admin for a new one.");
  if (invitation.acceptedAt !== null) throw new ApiError("invitation_used", "This invitation was accepted already: each works once.");
  if (invitation.revokedAt !== null) throw new ApiError("invitation_revoked", "This invitation was revoked by an admin of the team.");
  if (invitation.expiresAt <= now) throw new ApiError("invitation_expired", "This invitation has expired. Ask the team's admin for a new one.");
  return { ...invitation, role: invitation.role };
}

/**
 * Whether `token` is an open invitation that an account with `email` may accept: what lets a
 * sign-up through with SIGN_UP=invite (lib/auth/account-policy.ts). The account is made, not yet
 * a member: the person then joins on the invitation's page.
 */
export async function invitationAdmits(token: string | undefined, email: string): Promise<boolean> {
  if (token === undefined || !/^[A-Za-z0-9_-]{43}$/.test(token)) return false;
  try {
    const invitation = await openInvitation(token, new Date());
    return invitation.anyEmail || invitation.email === email;
  } catch (error) {
    if (error instanceof ApiError) return false;
    throw error;
  }
}

/**
 * `user` accepts the invitation `token` opens and joins its team with its role. One conditional
 * update spends the invitation: of two acceptances at once exactly one joins. Returns the team's id.
 */
export async function acceptInvitation(user: { id: string; email: string }, token: string): Promise<string> {
  const now = new Date();
  const invitation = await openInvitation(token, now);
  if (!invitation.anyEmail && invitation.email !== user.email) {
    throw new ApiError("invitation_email_mismatch", "This invitation is for another email address. Sign in with that address's account.");
  }
  if ((await teamRoleOf(user.id, invitation.teamId)) !== null) throw new ApiError("already_member", "You are a member of this team already.");
  const prisma = await db();
  const spent = Prisma.sql`EXISTS (SELECT 1 FROM "TeamInvitation" i WHERE i."id" = ${invitation.id} AND i."acceptedById" = ${user.id})`;
  const [accepted] = await statementsInOneTransaction([
    prisma.$executeRaw`
      UPDATE "TeamInvitation" SET "acceptedAt" = ${now}, "acceptedById" = ${user.id}
      WHERE "id" = ${invitation.id} AND "acceptedAt" IS NULL AND "revokedAt" IS NULL AND "expiresAt" > ${now}
        AND NOT EXISTS (SELECT 1 FROM "TeamMember" m WHERE m."teamId" = ${invitation.teamId} AND m."userId" = ${user.id})`,
    prisma.$executeRaw`
      INSERT INTO "TeamMember" ("teamId", "userId", "role", "joinedAt")
      SELECT ${invitation.teamId}, ${user.id}, ${invitation.role}, ${now} WHERE ${spent}
      ON CONFLICT DO NOTHING`,
    teamEventRecord(prisma, { kind: "member_joined", actorId: user.id, teamId: invitation.teamId, subjectId: invitation.id, memberEmail: user.email, memberId: user.id, role: invitation.role }, spent),
  ]);
  if (accepted === 1) return invitation.teamId;
  await openInvitation(token, new Date());
  throw new ApiError("already_member", "You are a member of this team already.");
}
