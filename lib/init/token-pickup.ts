import type { Config } from "../config";
import { tokenCollectedRecord } from "../activity/record-activity";
import { db, statementsInOneTransaction } from "../database/db";
import { lockMembershipStatement, reachableProjects } from "../teams/team-access";
import { ApiError } from "../errors";
import { consumeRateLimit, giveBack, type TakenUnit } from "../limits/rate-limit";
import { limitRules } from "../limits/rules";
import type { RequestOrigin } from "../request-origin";
import { secretMatchesHash } from "../secrets";
import { deleteAccessToken, issueProjectAccessToken, type IssuedAccessToken } from "../access-tokens/issue-access-token";
import { accessExpiresAt } from "./access-lifetime";

type IssuedProjectToken = IssuedAccessToken & { expiresAt: Date };

// The token pickup: once an init is done, the client that presents the init's secret
// (`Authorization: Bearer <secret>`, RFC 6750 §2.1) gets the project, the approver (if their
// account allows it) and, exactly
// once, an access token for the project. Anyone else polling sees only the status.

/** What the client holding the init's secret learns besides the status. */
export type PickupExtras = {
  project?: { id: string; name: string; team_id: string | null };
  /** Null unless the approver's account lets clients learn their email (/settings/privacy). */
  approved_by?: { email: string; email_verified: boolean } | null;
  access_token?: string;
  access_token_expires_at?: number;
  access_token_expires_in?: number;
};

/** Whole seconds from now until `at`, at least 1: an `expires_in` (RFC 6749 §5.1). */
export const secondsUntil = (at: Date): number => Math.max(1, Math.floor((at.getTime() - Date.now()) / 1000));

/** A presented secret must be this init's; a wrong one is refused before anything is recorded. */
export function assertInitSecret(presented: string, storedHash: string): void {
  if (!secretMatchesHash(presented, storedHash)) throw new ApiError("invalid_secret", "The secret does not belong to this init.");
}

/**
 * Pickups are limited per init, on top of the interval: a unit is taken before anything else is
 * decided (a 429 once the window is full, writing nothing), so concurrent pickups never overshoot.
 */
export async function takePickup(cfg: Config, initId: string): Promise<TakenUnit> {
  return consumeRateLimit(limitRules(cfg).pickupsPerInit, initId);
}

/** A pickup refused afterwards (the poll clock's slow_down) does not count: its unit goes back. */
export async function returnPickup(unit: TakenUnit): Promise<void> {
  await giveBack(unit);
}

/**
 * A done init's approval: the project, the account that approved it, the access lifetime it
 * chose, and the DPoP key its token is bound to, if any.
 */
export type Approval = {
  initId: string;
  sender: string;
  senderDevice: string | null;
  projectId: string;
  approvedById: string;
  accessLifetimeSeconds: number | null;
  dpopJkt: string | null;
};

/**
 * Issues the approval's access token and claims it for this request (`origin`), once: the token
 * row is made first and then claimed with a conditional update, which the approver's activity
 * records. A request that loses the claim deletes its token unseen and learns why: another
 * request collected it (`collected`), or the approval was reported meanwhile and the init is
 * denied (`denied`). `expiresAt`: the access lifetime the person chose
 * (lib/init/access-lifetime.ts), which is also the end of the OAuth login the token starts (the
 * device-code grant).
 */
export async function claimAccessToken(approval: Approval, origin: RequestOrigin, expiresAt: Date): Promise<IssuedProjectToken | "collected" | "denied"> {
  const prisma = await db();
  const name = approval.senderDevice ? `${approval.sender} on ${approval.senderDevice}` : approval.sender;
  const issued = await issueProjectAccessToken(approval.approvedById, approval.projectId, name, expiresAt, approval.dpopJkt);
  const reached = { project: { is: reachableProjects(approval.approvedById) } };
  const [, claimed] = await statementsInOneTransaction([
    // The approver must still reach the project: a team project's membership is locked first, so a
    // removal racing this claim either revokes the token it made or makes it refuse (lib/teams/).
    lockMembershipStatement(prisma, approval.projectId, approval.approvedById),
    // Only a done init: one whose approval was reported ("This wasn't me", lib/approvals/) is denied.
    prisma.init.updateMany({ where: { id: approval.initId, status: "done", accessTokenId: null, ...reached }, data: { accessTokenId: issued.id } }),
    tokenCollectedRecord(prisma, approval.initId, issued.id, origin),
  ]);
  if (claimed.count === 1) return issued;
  await deleteAccessToken(issued.id);
  const now = await prisma.init.findUnique({ where: { id: approval.initId }, select: { status: true, accessTokenId: true } });
  // An approver who left the project's team since (or was removed) no longer gives it.
  return now?.status === "denied" || now?.accessTokenId === null ? "denied" : "collected";
}

/**
 * The extras of a done init for its secret's holder, whose request is `origin`; a token is bound
 * to the key `dpopJkt` gives (boundKey, lib/oauth/dpop.ts). `denied` when the approval was
 * reported since the init was read: the holder then gets the denied answer, not the project.
 */
export async function pickupExtras(cfg: Config, initId: string, alreadyIssued: boolean, origin: RequestOrigin, dpopJkt: () => Promise<string | null>): Promise<PickupExtras | "denied"> {
  const prisma = await db();
  const init = await prisma.init.findUniqueOrThrow({
    where: { id: initId },
    select: { status: true, sender: true, senderDevice: true, accessLifetimeSeconds: true, project: { select: { id: true, name: true, teamId: true } }, approvedBy: { select: { id: true, email: true, emailVerifiedAt: true, shareEmailWithClients: true } } },
  });
  if (init.status === "denied") return "denied";
  if (init.project === null || init.approvedBy === null) return {};
  // Privacy: by default the client learns the project, not the person who approved it.
  const approvedBy = init.approvedBy.shareEmailWithClients ? { email: init.approvedBy.email, email_verified: init.approvedBy.emailVerifiedAt !== null } : null;
  const extras: PickupExtras = { project: { id: init.project.id, name: init.project.name, team_id: init.project.teamId }, approved_by: approvedBy };
  if (alreadyIssued) return extras;
  const approval = {
    initId,
    sender: init.sender,
    senderDevice: init.senderDevice,
    projectId: init.project.id,
    approvedById: init.approvedBy.id,
    accessLifetimeSeconds: init.accessLifetimeSeconds,
    dpopJkt: await dpopJkt(),
  };
  const issued = await claimAccessToken(approval, origin, accessExpiresAt(cfg, init.accessLifetimeSeconds, new Date()));
  if (issued === "denied") return "denied";
  if (issued === "collected") return extras;
  return { ...extras, access_token: issued.token, access_token_expires_at: issued.expiresAt.getTime(), access_token_expires_in: secondsUntil(issued.expiresAt) };
}
