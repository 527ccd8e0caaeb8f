import type { Config } from "../config";
import { initApprovedRecord } from "../activity/record-activity";
import type { SessionUser } from "../auth/sessions";
import { db, statementsInOneTransaction } from "../database/db";
import { noticeStatements } from "../email/notices";
import { nudgeOutbox } from "../email/outbox";
import { ApiError, initNotPending, notFound } from "../errors";
import { RANDOM_ID_PATTERN } from "../secrets";
import { countedNewProject, insertProjectWithinCap } from "../projects/new-project";
import { findReachableProject } from "../projects/projects";
import { hasRole } from "../teams/roles";
import { lockMembershipStatement, projectAccess, reachesProjectSql, teamRoleOf } from "../teams/team-access";
import type { RequestOrigin } from "../request-origin";
import { chosenAccessLifetime } from "./access-lifetime";
import { mintCodeStatement } from "./authorization-code";
import { checkUserCode } from "./code-check";
import { clientElsewhere, codeCheckMode, otherBrowser, type AuthorizationBrowser } from "./code-check-mode";
import { publishInitChange } from "./init-events";
import { NOT_PENDING, pendingInit } from "./init-lifecycle";
import { proximityOf } from "./proximity";
import type { ApproveForm } from "./schemas";

/**
 * The signed-in person approves a pending init into a new project or one of theirs. One
 * conditional update (still pending, not yet expired) decides: of two concurrent approvals
 * exactly one succeeds, records it in the approver's activity (with `origin`, where the approving
 * browser's request came from), and tells the init's waiters. A new project is limited per hour
 * and per account (lib/projects/new-project.ts), an existing one never. Returns the project's id.
 *
 * The rules, in order, each refusing before anything is written but the code check's own count:
 * a pending init; an access lifetime among the choices (lib/init/access-lifetime.ts); the code
 * check that the browser's proximity to the client asks for (lib/init/code-check-mode.ts), which
 * the code typed at /device in this browser session answers (lib/init/code-entry.ts); for an
 * authorization request, none, but only in the browser that opened it (`authorizingBrowser`,
 * lib/init/authorizing-browser.ts), whose approval also mints the code. (A confirmed
 * email where EMAIL_VERIFICATION=required is the route's first check, before the passkey step-up.)
 */
export async function approveInit(cfg: Config, { id: userId, sessionId }: SessionUser, initId: string, form: ApproveForm, origin: RequestOrigin, authorizingBrowser: boolean): Promise<string> {
  const { choice, check } = form;
  const init = await pendingInit(initId);
  const lifetime = chosenAccessLifetime(cfg, form.lifetime);
  const authorization: AuthorizationBrowser = init.authorizationRequest === null ? "no_request" : authorizingBrowser ? "this_browser" : "other_browser";
  const proximity = proximityOf(cfg, init.observedIp, origin.address);
  const mode = codeCheckMode(cfg.initCodeCheck, init.userCodeShown, proximity, authorization);
  if (mode === "refused") throw clientElsewhere();
  if (mode === "other_browser") throw otherBrowser();
  // Typed at /device in this browser session: the approval's own update uses it up.
  if (mode !== "redirect" && init.codeEnteredSessionId !== sessionId) await checkUserCode(cfg, mode, init.id, init.userCode, check);
  const now = new Date();
  // An approval from another network than the client's is told to the account's address.
  // An authorization request's address is the approving browser's own: a change there is no other network.
  const decision = { userId, origin, now, accessLifetimeSeconds: lifetime.ms / 1000, notice: mode !== "redirect" && proximity === "elsewhere", mintsCode: mode === "redirect" };
  if (choice.kind === "existing") {
    const project = await findReachableProject(userId, choice.id);
    if (project === null) throw notFound("You have no project with this id.");
    if (!(await decide(cfg, init.id, project.id, decision))) throw await refusalNow(init.id, userId, project.id);
    return project.id;
  }
  if (choice.teamId !== null) {
    const role = RANDOM_ID_PATTERN.test(choice.teamId) ? await teamRoleOf(userId, choice.teamId) : null;
    if (role === null) throw notFound("You are not a member of a team with this id.");
    if (!hasRole(role, "admin")) throw new ApiError("team_role_required", "Only the team's owners and admins may make its projects: choose one of its projects instead.");
  }
  return countedNewProject(cfg, userId, origin.address, async () => {
    // The new project takes the init's id: clients that keep the init id as the project id
    // address the right project. The primary key also makes a second new project impossible.
    const created = await insertProjectWithinCap(cfg, { id: init.id, name: choice.name, ownerId: userId, teamId: choice.teamId, createdAt: now });
    if (created === "taken") throw initNotPending(NOT_PENDING.done);
    if (await decide(cfg, init.id, init.id, decision)) return init.id;
    const prisma = await db();
    await prisma.project.deleteMany({ where: { id: init.id, inits: { none: {} } } });
    throw await refusalNow(init.id, userId, init.id);
  });
}

/** Who approves, from where, when, for how long, and whether the account is told by mail. */
type Decision = { userId: string; origin: RequestOrigin; now: Date; accessLifetimeSeconds: number; notice: boolean; mintsCode: boolean };

/**
 * The one conditional update that approves, with its activity record (and notice); true if this
 * request won. The person must still reach the project when it runs: a team project's membership
 * is locked first (lib/teams/team-access.ts), so an approval racing the person's removal either
 * commits first and is revoked by the removal, or is refused.
 */
async function decide(cfg: Config, initId: string, projectId: string, { userId, origin, now, accessLifetimeSeconds, notice, mintsCode }: Decision): Promise<boolean> {
  const prisma = await db();
  const [, approved] = await statementsInOneTransaction([
    lockMembershipStatement(prisma, projectId, userId),
    prisma.$executeRaw`
      UPDATE "Init" SET "status" = 'done', "projectId" = ${projectId}, "approvedById" = ${userId}, "decidedAt" = ${now}, "accessLifetimeSeconds" = ${accessLifetimeSeconds}, "codeEnteredSessionId" = NULL
      WHERE "id" = ${initId} AND "status" = 'pending' AND "expiresAt" > ${now} AND EXISTS (SELECT 1 FROM "Project" p WHERE p."id" = ${projectId} AND ${reachesProjectSql("p", userId)})`,
    initApprovedRecord(prisma, initId, userId, origin),
    // An authorization request's code, for this approval only.
    ...(mintsCode ? [mintCodeStatement(cfg, prisma, initId, userId, now)] : []),
    ...(notice ? noticeStatements(cfg, prisma, userId, "init_approved", initId) : []),
  ]);
  if (approved !== 1) return false;
  await publishInitChange(cfg, initId);
  if (notice) nudgeOutbox(cfg);
  return true;
}

/**
 * Why the approval's update changed nothing: the init is no longer pending (expired, denied or
 * approved meanwhile), or, still pending, the person no longer reaches the project. The update
 * itself checks that (decide), and a removal from the project's team between the check before it
 * and the update is refused there: that refusal is not_found, as the check before would have said,
 * not init_not_pending, which would tell the page that a still pending init was approved already.
 */
async function refusalNow(initId: string, userId: string, projectId: string): Promise<ApiError> {
  await pendingInit(initId);
  if ((await projectAccess(userId, projectId)) === null) return notFound("You have no project with this id.");
  return initNotPending(NOT_PENDING.done);
}
