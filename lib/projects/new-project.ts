import type { Config } from "../config";
import { db, statementsInOneTransaction } from "../database/db";
import { Prisma } from "../generated/prisma/client";
import { ApiError } from "../errors";
import { addressSubject, countedUnlessRefused, type Refusal } from "../limits/rate-limit";
import { limitRules, projectsPerAccount } from "../limits/rules";

// A project made by approving an init into a new one. Each costs a key
// generation, about a CPU-second, once it is used; so new projects are limited per client
// address and per account each hour (NEW_PROJECTS_PER_ADDRESS_PER_HOUR, ..._PER_ACCOUNT_...),
// and one account holds at most PROJECTS_PER_ACCOUNT. A refusal writes nothing, and approving
// into an existing project is never limited: the page offers that instead.

/** `teamId`: the team it is made in (its maker must be an owner or admin there), or null for a personal project. */
export type NewProject = { id: string; name: string; ownerId: string; teamId: string | null; createdAt: Date };

const MINUTE_SECONDS = 60;

const tooManyNewProjects =
  (who: string): Refusal =>
  (rule, retryIn) =>
    new ApiError(
      "too_many_new_projects",
      `${who} made ${rule.limit} new projects this hour, the most allowed. Approve into one of your projects, or try again in ${Math.ceil(retryIn / MINUTE_SECONDS)} minutes.`,
      { retryInSeconds: retryIn },
    );

/**
 * Runs `work` with a unit of the hour's new projects taken for the client address and for the
 * account, each given back if `work` throws (the approval lost its race, the account is full):
 * only projects made count.
 */
export function countedNewProject<T>(cfg: Config, ownerId: string, address: string | null, work: () => Promise<T>): Promise<T> {
  const rules = limitRules(cfg);
  return countedUnlessRefused(
    rules.newProjectsPerAddress,
    addressSubject(address),
    () => countedUnlessRefused(rules.newProjectsPerAccount, ownerId, work, tooManyNewProjects("This account")),
    tooManyNewProjects("This address"),
  );
}

/**
 * Inserts the project if its owner holds fewer than PROJECTS_PER_ACCOUNT: "taken" when a project
 * has its id already; project_limit_reached (409), writing nothing, when the owner is full.
 */
export async function insertProjectWithinCap(cfg: Config, project: NewProject): Promise<"created" | "taken"> {
  const prisma = await db();
  const cap = projectsPerAccount(cfg);
  // The owner's row is written first (a no-op update) and so locked until the commit: concurrent
  // inserts for one owner run one after another, and each one's count sees the projects made
  // before it, on PostgreSQL (READ COMMITTED) as on SQLite (one writer). Then the count and the
  // insert are one statement.
  // In a team, the maker's role is checked by the insert itself, after their membership's row is
  // locked (lib/teams/team-access.ts): a demotion or removal a moment before refuses it.
  const team =
    project.teamId === null
      ? Prisma.sql`TRUE`
      : Prisma.sql`EXISTS (SELECT 1 FROM "TeamMember" m WHERE m."teamId" = ${project.teamId} AND m."userId" = ${project.ownerId} AND m."role" IN ('owner', 'admin'))`;
  const [, , inserted] = await statementsInOneTransaction([
    prisma.$executeRaw`UPDATE "User" SET "email" = "email" WHERE "id" = ${project.ownerId}`,
    prisma.$executeRaw`UPDATE "TeamMember" SET "role" = "role" WHERE "teamId" = ${project.teamId} AND "userId" = ${project.ownerId}`,
    prisma.$executeRaw`
      INSERT INTO "Project" ("id", "name", "ownerId", "teamId", "createdAt")
      SELECT ${project.id}, ${project.name}, ${project.ownerId}, ${project.teamId}, ${project.createdAt}
      WHERE (SELECT COUNT(*) FROM "Project" WHERE "ownerId" = ${project.ownerId}) < ${cap} AND ${team}
      ON CONFLICT DO NOTHING`,
  ]);
  if (inserted === 1) return "created";
  if ((await prisma.project.count({ where: { id: project.id } })) === 1) return "taken";
  if (project.teamId !== null && (await prisma.teamMember.count({ where: { teamId: project.teamId, userId: project.ownerId, role: { in: ["owner", "admin"] } } })) === 0) {
    throw new ApiError("team_role_required", "Only the team's owners and admins may make its projects.");
  }
  throw new ApiError("project_limit_reached", `Your account holds ${cap} projects, the most it may. Approve into one of your projects instead.`);
}
