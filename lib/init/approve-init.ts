import type { Config } from "../config";
import { initApprovedRecord } from "../activity/record-activity";
import { db, inOneTransaction, isUniqueViolation } from "../database/db";
import { ApiError } from "../errors";
import { findOwnedProject } from "../projects/projects";
import type { RequestOrigin } from "../request-origin";
import { checkUserCode } from "./code-check";
import { codeCheckMode } from "./code-check-mode";
import { publishInitChange } from "./init-events";
import { NOT_PENDING, pendingInit } from "./init-lifecycle";
import type { CodeCheck, ProjectChoice } from "./schemas";

/**
 * The signed-in person approves a pending init into a new project or one of theirs. One
 * conditional update (still pending, not yet expired) decides: of two concurrent approvals
 * exactly one succeeds, records it in the approver's activity (with `origin`, where the approving
 * browser's request came from), and tells the init's waiters. Returns the project's id.
 */
export async function approveInit(cfg: Config, userId: string, initId: string, choice: ProjectChoice, check: CodeCheck, origin: RequestOrigin): Promise<string> {
  const init = await pendingInit(initId);
  await checkUserCode(cfg, codeCheckMode(cfg.initCodeCheck, init.userCodeShown), init.id, init.userCode, check);
  const prisma = await db();
  const now = new Date();
  let projectId: string;
  let createdProject = false;
  if (choice.kind === "existing") {
    const project = await findOwnedProject(userId, choice.id);
    if (project === null) throw new ApiError("not_found", "You have no project with this id.");
    projectId = project.id;
  } else {
    // The new project takes the init's id: clients that keep the init id as the project id
    // address the right project. The primary key also makes a second new project impossible.
    try {
      await prisma.project.create({ data: { id: init.id, name: choice.name, ownerId: userId, createdAt: now } });
    } catch (error) {
      if (isUniqueViolation(error)) throw new ApiError("init_not_pending", NOT_PENDING.done);
      throw error;
    }
    projectId = init.id;
    createdProject = true;
  }
  const [approved] = await inOneTransaction(
    prisma.init.updateMany({
      where: { id: init.id, status: "pending", expiresAt: { gt: now } },
      data: { status: "done", projectId, approvedById: userId, decidedAt: now },
    }),
    initApprovedRecord(prisma, init.id, userId, origin),
  );
  if (approved.count === 1) {
    await publishInitChange(cfg, init.id);
    return projectId;
  }
  if (createdProject) await prisma.project.deleteMany({ where: { id: projectId, inits: { none: {} } } });
  await pendingInit(init.id);
  throw new ApiError("init_not_pending", NOT_PENDING.done);
}
