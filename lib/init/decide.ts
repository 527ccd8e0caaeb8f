import { timingSafeEqual } from "node:crypto";
import { db, isUniqueViolation } from "../db";
import { ApiError } from "../http/errors";
import { prepareProjectKey } from "../projects/keys";
import { findOwnedProject } from "../projects/projects";
import type { Config } from "../config";
import { RANDOM_ID_PATTERN } from "../secrets";
import { normaliseUserCode } from "./codes";
import { effectiveStatus, initNotFound, type InitStatus } from "./status";

// Approve and deny. Each state change is one conditional update (status still pending, not yet
// expired) whose row count decides the winner: two concurrent approvals cannot both succeed.

export const MAX_CODE_ATTEMPTS = 5;

export type ProjectChoice = { kind: "new"; name: string } | { kind: "existing"; id: string };
/** What the person did about the code: ticked that it matches, or typed it. */
export type CodeCheck = { confirmed: boolean; entered: string };

const NOT_PENDING: Record<Exclude<InitStatus, "pending">, string> = {
  done: "This request has already been approved.",
  denied: "This request has been denied.",
  expired: "This request has expired. Start again in your terminal.",
};

async function pendingInit(id: string) {
  if (!RANDOM_ID_PATTERN.test(id)) throw initNotFound();
  const prisma = await db();
  const init = await prisma.init.findUnique({ where: { id }, select: { id: true, status: true, expiresAt: true, userCode: true } });
  if (init === null) throw initNotFound();
  const status = effectiveStatus(init.status, init.expiresAt, Date.now());
  if (status !== "pending") throw new ApiError("init_not_pending", NOT_PENDING[status]);
  return init;
}

// RFC 8628 §5.4: the person checks that the code on the page is the one in their terminal,
// by ticking that it matches (INIT_CODE_CHECK=confirm) or by typing it (enter).
async function checkCode(mode: Config["initCodeCheck"], initId: string, userCode: string, check: CodeCheck): Promise<void> {
  if (mode === "confirm") {
    if (!check.confirmed) throw new ApiError("code_mismatch", "Confirm that the code matches the one in your terminal.");
    return;
  }
  const expected = Buffer.from(normaliseUserCode(userCode));
  const entered = Buffer.from(normaliseUserCode(check.entered));
  if (entered.length === expected.length && timingSafeEqual(entered, expected)) return;
  const prisma = await db();
  await prisma.init.updateMany({ where: { id: initId, status: "pending" }, data: { codeAttempts: { increment: 1 } } });
  const denied = await prisma.init.updateMany({
    where: { id: initId, status: "pending", codeAttempts: { gte: MAX_CODE_ATTEMPTS } },
    data: { status: "denied", decidedAt: new Date() },
  });
  if (denied.count === 1) throw new ApiError("init_not_pending", "Too many wrong codes: this request has been denied.");
  throw new ApiError("code_mismatch", "That code does not match. Check the code in your terminal and type it again.");
}

export async function approveInit(cfg: Config, userId: string, initId: string, choice: ProjectChoice, check: CodeCheck): Promise<string> {
  const init = await pendingInit(initId);
  await checkCode(cfg.initCodeCheck, init.id, init.userCode, check);
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
  const approved = await prisma.init.updateMany({
    where: { id: init.id, status: "pending", expiresAt: { gt: now } },
    data: { status: "done", projectId, approvedById: userId, decidedAt: now },
  });
  if (approved.count === 1) {
    if (createdProject) prepareProjectKey(cfg, projectId);
    return projectId;
  }
  if (createdProject) await prisma.project.deleteMany({ where: { id: projectId, inits: { none: {} } } });
  await pendingInit(init.id);
  throw new ApiError("init_not_pending", NOT_PENDING.done);
}

export async function denyInit(initId: string): Promise<void> {
  const init = await pendingInit(initId);
  const prisma = await db();
  const now = new Date();
  const denied = await prisma.init.updateMany({
    where: { id: init.id, status: "pending", expiresAt: { gt: now } },
    data: { status: "denied", decidedAt: now },
  });
  if (denied.count === 1) return;
  await pendingInit(init.id);
  throw new ApiError("init_not_pending", NOT_PENDING.denied);
}
