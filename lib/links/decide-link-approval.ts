import type { Config } from "../config";
import { db, isUniqueViolation } from "../database/db";
import { ApiError } from "../errors";
import { resolveProjectId } from "../projects/resolve-project";
import { randomId } from "../secrets";
import { alreadyLinked, assertLegacyLinkApproval } from "./link-approval-lifecycle";

// The person's decision about a link request (lib/links/link-approval-lifecycle.ts) on
// /projects/{id}/link/{iv}: approve or deny that (project, iv). Any decision not yet claimed
// may be changed (a denial after an approval stops the claim), and each starts a new lifetime,
// so an approval that expired can be given again.

export type LinkDecision = "approved" | "denied";

export async function decideLinkApproval(cfg: Config, userId: string, pathProjectId: string, iv: string, decision: LinkDecision): Promise<void> {
  assertLegacyLinkApproval(cfg);
  const projectId = await resolveProjectId(pathProjectId, userId);
  if (projectId === null) throw new ApiError("not_found", "You have no project with this id.");
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
  // Any row but one a client is claiming right now (lib/links/request-approved-link.ts); a claim
  // left behind by a crash is void once its lifetime is over.
  const decidable = { projectId, iv, NOT: { status: "claiming", expiresAt: { gt: new Date(now) } } };
  if ((await prisma.linkApproval.updateMany({ where: decidable, data })).count === 1) return;
  const id = randomId();
  try {
    // The person may decide before the client has asked.
    await prisma.linkApproval.create({ data: { id, projectId, iv, createdAt: new Date(now), ...data } });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    if ((await prisma.linkApproval.updateMany({ where: decidable, data })).count === 0) throw alreadyLinked();
    return;
  }
  // A claim may have made its link (and deleted its row) since the check above.
  if (await linked()) {
    await prisma.linkApproval.deleteMany({ where: { id } });
    throw alreadyLinked();
  }
}
