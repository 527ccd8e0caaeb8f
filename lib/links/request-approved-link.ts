import type { Config } from "../config";
import { db, isUniqueViolation } from "../database/db";
import { ApiError } from "../errors";
import { addressSubject, consumeRateLimit, giveBack } from "../limits/rate-limit";
import { limitRules } from "../limits/rules";
import { projectPublicKey } from "../projects/project-keys";
import { resolveProjectId } from "../projects/resolve-project";
import type { RequestOrigin } from "../request-origin";
import { randomId } from "../secrets";
import { deleteAccessToken, issueProjectAccessToken } from "../access-tokens/issue-access-token";
import { accessExpiresAt } from "../init/access-lifetime";
import { clientSoftware } from "./client-software";
import { createProjectLink, type LinkAnswer } from "./create-project-link";
import { alreadyLinked, askNeedsRecording, assertLegacyLinkApproval, linkApprovalState } from "./link-approval-lifecycle";

// POST /api/projects/{projectId}/link/{iv} with no Authorization, LEGACY_LINK_APPROVAL on: an
// existing client asks again and again until the person has approved this (project, iv) in the
// browser (lib/links/link-approval-lifecycle.ts). Every answer but the link is "not yet" to it.
// Claiming an approval issues an access token for the approver, scoped to the project, that no
// one ever sees, and makes the link with it through Create Project Link itself: the link is
// then like any other (listed on the project page, revocable, its bearer dies with the token).

const CLAIM_HOLD_MS = 30_000;

const pending = () =>
  new ApiError("link_approval_pending", "Waiting for a person to approve this link in the browser, at /projects/{projectId}/link/{iv}. Ask again later.");

type StoredApproval = { status: string; expiresAt: Date; askedAt: Date | null; approvedById: string | null };

/**
 * Records this POST on the request (`approval` as read, null if new): when and from where the
 * client asked, which the page shows and a decision needs; a waiting request is kept for another
 * lifetime, a decision keeps its own.
 */
async function recordAsked(cfg: Config, projectId: string, iv: string, origin: RequestOrigin, approval: StoredApproval | null): Promise<void> {
  const prisma = await db();
  const now = Date.now();
  const seen = { observedIp: origin.address, observedUserAgent: origin.userAgent, askedAt: new Date(now) };
  const kept = { expiresAt: new Date(now + cfg.legacyLinkApproval.lifetimeMs) };
  if (approval === null) {
    // Each new request writes a row, so anyone may make only so many.
    const unit = await consumeRateLimit(limitRules(cfg).linkApprovalRequests, addressSubject(origin.address));
    try {
      await prisma.linkApproval.create({ data: { id: randomId(), projectId, iv, status: "waiting", createdAt: new Date(now), ...seen, ...kept } });
    } catch (error) {
      // A concurrent POST made it a moment ago: this one wrote nothing, so it does not count.
      if (!isUniqueViolation(error)) throw error;
      await giveBack(unit);
    }
    return;
  }
  if (!askNeedsRecording(approval.askedAt, now, cfg.legacyLinkApproval.lifetimeMs)) return;
  // Conditional on the row as read: of concurrent POSTs one writes, and never over a decision made meanwhile.
  const waiting = approval.status === "waiting";
  await prisma.linkApproval.updateMany({
    where: { projectId, iv, status: approval.status, askedAt: approval.askedAt, expiresAt: approval.expiresAt },
    data: waiting ? { ...seen, ...kept } : seen,
  });
}

/**
 * Claims the approval: one conditional update decides between concurrent claims and marks the
 * row "claiming"; it is deleted only once the link exists, so no other request ever finds
 * neither (and takes itself for a new one), and no decision can change it meanwhile.
 */
async function claim(cfg: Config, projectId: string, iv: string, approval: { approvedById: string; expiresAt: Date }, origin: RequestOrigin): Promise<LinkAnswer | null> {
  const approverId = approval.approvedById;
  // Waits for the project's key first: a 503 here must not spend the approval.
  await projectPublicKey(cfg, projectId);
  const prisma = await db();
  const claiming = { projectId, iv, status: "claiming" };
  // A claim begun just before the approval's expiry still gets CLAIM_HOLD_MS to make its link,
  // before the sweep or a decision may take the row.
  const claimed = await prisma.linkApproval.updateMany({
    where: { projectId, iv, status: "approved", approvedById: approverId, expiresAt: { equals: approval.expiresAt, gt: new Date() } },
    data: { status: "claiming", expiresAt: new Date(Math.max(approval.expiresAt.getTime(), Date.now() + CLAIM_HOLD_MS)) },
  });
  if (claimed.count !== 1) return null;
  let answer: LinkAnswer;
  let tokenId: string;
  try {
    // The token names the link on the project page: by the client's software, as no sender or device was given.
    const client = clientSoftware(origin.userAgent) ?? "A client";
    // The preselected access lifetime: this page offers no choice (docs/pages.md).
    const expiresAt = accessExpiresAt(cfg, null, new Date());
    const issued = await issueProjectAccessToken(approverId, projectId, `${client}, approved in the browser (iv ${iv.slice(0, 8)}…)`, expiresAt, null);
    tokenId = issued.id;
    try {
      answer = await createProjectLink(cfg, { id: issued.id, userId: approverId, projectId, expiresAt: issued.expiresAt }, projectId, iv, origin);
    } catch (error) {
      // Another client linked this (project, iv) with its own access token meanwhile.
      await deleteAccessToken(issued.id);
      throw error;
    }
  } catch (error) {
    // Not linked by this claim: the approval stands, for the next POST, as it was.
    await prisma.linkApproval.updateMany({ where: claiming, data: { status: "approved", expiresAt: approval.expiresAt } });
    throw error;
  }
  if ((await prisma.linkApproval.deleteMany({ where: claiming })).count === 1) return answer;
  // The claim outlived CLAIM_HOLD_MS and a new decision (or the sweep) took its row: the
  // person's latest word wins, so the link goes with the token that made it.
  await deleteAccessToken(tokenId);
  return null;
}

export async function requestApprovedLink(cfg: Config, pathProjectId: string, iv: string, origin: RequestOrigin): Promise<LinkAnswer> {
  assertLegacyLinkApproval(cfg);
  const projectId = await resolveProjectId(pathProjectId);
  // Answered as a known project that no one has approved yet: without credentials, the answer
  // must not tell which project ids exist (a 404 did). Nothing is written for it.
  if (projectId === null) throw pending();
  const prisma = await db();
  const where = { projectId_iv: { projectId, iv } };
  // The approval is read before the link: a claim deletes its row only once its link exists.
  const approval = await prisma.linkApproval.findUnique({ where, select: { status: true, expiresAt: true, askedAt: true, approvedById: true } });
  if ((await prisma.projectLink.findUnique({ where, select: { id: true } })) !== null) throw alreadyLinked();
  const state = approval === null ? "waiting" : linkApprovalState(approval.status, approval.expiresAt, Date.now());
  // Every POST but a claim is recorded: the person may decide (again) only while the client asks.
  if (state !== "approved") await recordAsked(cfg, projectId, iv, origin, approval);
  if (state === "waiting") throw pending();
  if (state === "denied") throw new ApiError("link_denied", "The person denied this link. Start again with a new random iv.");
  if (state === "expired") throw new ApiError("link_approval_expired", "The approval of this link expired before it was collected. Approve it again in the browser.");
  // A claim lost to a concurrent one (or to a new decision) is "not yet": the next POST reads
  // the outcome, and nothing is written for it.
  const approvedById = approval?.approvedById;
  const answer = approval && approvedById ? await claim(cfg, projectId, iv, { approvedById, expiresAt: approval.expiresAt }, origin) : null;
  if (answer !== null) return answer;
  throw pending();
}
