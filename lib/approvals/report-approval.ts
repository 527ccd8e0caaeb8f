import { approvalReportedRecord } from "../activity/record-activity";
import { db, statementsInOneTransaction } from "../database/db";
import { noticeStatements } from "../email/notices";
import { nudgeOutbox } from "../email/outbox";
import { notFound } from "../errors";
import { publishInitChange } from "../init/init-events";
import type { Config } from "../config";
import type { RequestOrigin } from "../request-origin";

// "This wasn't me" (docs/security.md): the account that approved an init reports the approval,
// and everything that came from it is revoked in one transaction: the init's access token, the
// OAuth login started from it with every access token it issued (so a refresh is invalid_grant),
// and the links those tokens made (their bearers are refused and introspect inactive). An init
// not yet collected is turned to denied, so its client never collects. The activity records the
// report once; a second report revokes what is left (nothing) and records nothing.

/**
 * How long the init page offers "Undo" to the account that just approved (app/init/[id]/page.tsx):
 * the same report, which the activity and the project page offer for as long as the approval is
 * kept. A window for the page, not a limit: a report is accepted at any time.
 */
export const UNDO_APPROVAL_MS = 5 * 60_000;

/** What a report revoked: the access tokens and links by name, the OAuth logins by count. */
export type ReportedApproval = {
  initId: string;
  reportedAt: Date;
  projectId: string | null;
  projectName: string | null;
  accessTokens: string[];
  links: { iv: string; tokenName: string }[];
  logins: number;
};

const notApproved = () => notFound("You approved no request with this id.");

/** The access tokens of an approval: the init's own (while the init is kept), and every one its OAuth logins issued. */
function approvalTokens(initId: string, initTokenId: string | null) {
  const ofLogins = { refreshTokens: { some: { login: { initId } } } };
  return initTokenId === null ? ofLogins : { OR: [{ id: initTokenId }, ofLogins] };
}

/**
 * Reports `userId`'s approval of init `initId`. Only the approving account may: the proof is
 * its init_approved event (kept as long as the activity, after the sweep has deleted the init);
 * anything else is not_found and writes nothing. Answers the approval's project.
 */
export async function reportApproval(cfg: Config, userId: string, initId: string, origin: RequestOrigin): Promise<{ projectId: string | null }> {
  const prisma = await db();
  if (initId.length > 200) throw notApproved();
  const approved = await prisma.activityEvent.findUnique({ where: { userId_kind_subjectId: { userId, kind: "init_approved", subjectId: initId } }, select: { projectId: true } });
  if (approved === null) throw notApproved();
  // The init's token as read here is the precondition of the init's update: a client that
  // collects in between makes that update miss, and the report runs again with its token.
  // One time for every attempt: the report's event (written once, by the first) and what it
  // revoked share it, and reportedApproval() finds what was revoked by it.
  const now = new Date();
  for (let attempt = 0; attempt < 3; attempt++) {
    const init = await prisma.init.findUnique({ where: { id: initId }, select: { accessTokenId: true } });
    const tokens = approvalTokens(initId, init?.accessTokenId ?? null);
    const [initChanged] = await statementsInOneTransaction([
      // First, so that a concurrent collection (lib/init/token-pickup.ts, which claims only a
      // done init) either commits before it or finds the init denied.
      prisma.init.updateMany({ where: { id: initId, approvedById: userId, accessTokenId: init?.accessTokenId ?? null }, data: { status: "denied", deniedById: userId } }),
      prisma.oAuthLogin.updateMany({ where: { initId, userId, revokedAt: null }, data: { revokedAt: now, revokedReason: "report" } }),
      prisma.accessToken.updateMany({ where: { userId, revokedAt: null, ...tokens }, data: { revokedAt: now } }),
      prisma.projectLink.updateMany({ where: { revokedAt: null, accessToken: { userId, ...tokens } }, data: { revokedAt: now } }),
      approvalReportedRecord(prisma, userId, initId, now, origin),
      ...noticeStatements(cfg, prisma, userId, "approval_reported", initId),
    ]);
    if (init === null || initChanged.count === 1) break;
  }
  await publishInitChange(cfg, initId);
  nudgeOutbox(cfg);
  return { projectId: approved.projectId };
}

/** What the account's report of `initId` revoked, as the report left it; null: not reported. */
export async function reportedApproval(userId: string, initId: string): Promise<ReportedApproval | null> {
  const prisma = await db();
  const report = await prisma.activityEvent.findUnique({
    where: { userId_kind_subjectId: { userId, kind: "approval_reported", subjectId: initId } },
    select: { occurredAt: true, projectId: true, projectName: true },
  });
  if (report === null) return null;
  const init = await prisma.init.findUnique({ where: { id: initId }, select: { accessTokenId: true } });
  const tokens = approvalTokens(initId, init?.accessTokenId ?? null);
  const at = report.occurredAt;
  const [accessTokens, links, logins] = await Promise.all([
    prisma.accessToken.findMany({ where: { userId, revokedAt: at, ...tokens }, select: { name: true }, orderBy: { createdAt: "asc" } }),
    prisma.projectLink.findMany({ where: { revokedAt: at, accessToken: { userId, ...tokens } }, select: { iv: true, accessToken: { select: { name: true } } }, orderBy: { createdAt: "asc" } }),
    prisma.oAuthLogin.count({ where: { initId, userId, revokedAt: at, revokedReason: "report" } }),
  ]);
  return {
    initId,
    reportedAt: at,
    projectId: report.projectId,
    projectName: report.projectName,
    accessTokens: accessTokens.map((token) => token.name),
    links: links.map((link) => ({ iv: link.iv, tokenName: link.accessToken.name })),
    logins,
  };
}

/** The inits among `initIds` the account has reported (the activity and project pages show them as reported). */
export async function reportedInits(userId: string, initIds: string[]): Promise<Set<string>> {
  if (initIds.length === 0) return new Set();
  const prisma = await db();
  const reports = await prisma.activityEvent.findMany({ where: { userId, kind: "approval_reported", subjectId: { in: initIds } }, select: { subjectId: true } });
  return new Set(reports.map((report) => report.subjectId));
}

/** An approval into a project, for the project page's "This wasn't me". */
export type ProjectApproval = { initId: string; approvedAt: Date; client: string; reported: boolean };

/** The account's latest approvals into `projectId`, newest first, as its activity keeps them. */
export async function projectApprovals(userId: string, projectId: string, take = 20): Promise<ProjectApproval[]> {
  const prisma = await db();
  const approvals = await prisma.activityEvent.findMany({
    where: { userId, projectId, kind: "init_approved" },
    select: { subjectId: true, occurredAt: true, sender: true, senderDevice: true },
    orderBy: [{ occurredAt: "desc" }, { id: "desc" }],
    take,
  });
  const reported = await reportedInits(userId, approvals.map((approval) => approval.subjectId));
  return approvals.map((approval) => ({
    initId: approval.subjectId,
    approvedAt: approval.occurredAt,
    client: approval.senderDevice === null ? (approval.sender ?? "A client") : `${approval.sender} on ${approval.senderDevice}`,
    reported: reported.has(approval.subjectId),
  }));
}
