import type { Config } from "../config";
import { db } from "../database/db";
import { ApiError, notFound } from "../errors";
import { clientElsewhere } from "../init/code-check-mode";
import { isNearby, proximityOf } from "../init/proximity";
import { resolveProjectId } from "../projects/resolve-project";
import type { RequestOrigin } from "../request-origin";
import { alreadyLinked, ASKING_WINDOW_MS, assertLegacyLinkApproval } from "./link-approval-lifecycle";

// The person's decision about a link request (lib/links/link-approval-lifecycle.ts) on
// /projects/{id}/link/{iv}: approve or deny that (project, iv), only while a client is asking for
// it. Any decision not yet claimed may be changed (a denial after an approval stops the claim),
// and each starts a new lifetime, so an approval that expired can be given again. These clients
// show no code, so an approval is taken only from the client's network (lib/init/proximity.ts,
// as for an init of a client that shows none): from elsewhere it is client_elsewhere; a denial
// is taken from anywhere.

export type LinkDecision = "approved" | "denied";

/** `origin`: the deciding browser's request. */
export async function decideLinkApproval(cfg: Config, userId: string, pathProjectId: string, iv: string, decision: LinkDecision, origin: RequestOrigin): Promise<void> {
  assertLegacyLinkApproval(cfg);
  const projectId = await resolveProjectId(pathProjectId, userId);
  if (projectId === null) throw notFound("You have no project with this id.");
  const prisma = await db();
  const linked = async () => (await prisma.projectLink.findUnique({ where: { projectId_iv: { projectId, iv } }, select: { id: true } })) !== null;
  if (await linked()) throw alreadyLinked();
  const now = Date.now();
  const data = {
    status: decision,
    approvedById: decision === "approved" ? userId : null,
    decidedAt: new Date(now),
    expiresAt: new Date(now + cfg.legacyLinkApproval.lifetimeMs),
  };
  // A request a client asked for within the window (every row is made by a client's POST), but
  // not one a client is claiming right now (lib/links/request-approved-link.ts); a claim left
  // behind by a crash is void once its lifetime is over.
  const claimedNow = { status: "claiming", expiresAt: { gt: new Date(now) } };
  const asking = { projectId, iv, askedAt: { gt: new Date(now - ASKING_WINDOW_MS) }, NOT: claimedNow };
  const decidable = decision === "approved" ? { ...asking, observedIp: await nearbyClientAddress(cfg, projectId, iv, origin) } : asking;
  if ((await prisma.linkApproval.updateMany({ where: decidable, data })).count === 1) return;
  // Linked meanwhile (a claim deletes its row once its link exists), or being claimed.
  if ((await linked()) || (await prisma.linkApproval.count({ where: { projectId, iv, ...claimedNow } })) > 0) throw alreadyLinked();
  throw new ApiError("no_client_waiting", "No client is asking for this link right now. Start the link in your terminal, then decide while it waits.");
}

/**
 * The address of the client asking for (project, iv), if the approving browser is on its network;
 * the approval's update then holds it, so a client asking from elsewhere meanwhile is not approved.
 * No request at all: undefined, and the update finds nothing to decide.
 */
async function nearbyClientAddress(cfg: Config, projectId: string, iv: string, origin: RequestOrigin): Promise<string | undefined> {
  const prisma = await db();
  const request = await prisma.linkApproval.findUnique({ where: { projectId_iv: { projectId, iv } }, select: { observedIp: true } });
  if (request === null) return undefined;
  if (request.observedIp === null || !isNearby(proximityOf(cfg, request.observedIp, origin.address))) throw clientElsewhere();
  return request.observedIp;
}
