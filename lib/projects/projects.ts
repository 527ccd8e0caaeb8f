import type { Config } from "../config";
import { db } from "../database/db";
import { RANDOM_ID_PATTERN } from "../secrets";
import { isTeamRole, type TeamRole } from "../teams/roles";
import { projectAccess, reachableProjects } from "../teams/team-access";

// Projects as a person sees them, on the pages and where a person picks one: their personal
// projects and their teams' (lib/teams/team-access.ts).

/** `team`: null for a personal project; else its team and the person's role there. */
export type ProjectSummary = { id: string; name: string; createdAt: Date; team: { id: string; name: string; role: TeamRole } | null };

export const projectUrl = (cfg: Config, id: string) => `${cfg.appUrl}/projects/${id}`;

const summarySelect = (userId: string) =>
  ({ id: true, name: true, createdAt: true, team: { select: { id: true, name: true, members: { where: { userId }, select: { role: true } } } } }) as const;

type Row = { id: string; name: string; createdAt: Date; team: { id: string; name: string; members: { role: string }[] } | null };

function summary(row: Row): ProjectSummary {
  const { team, ...project } = row;
  const role = team?.members[0]?.role;
  return { ...project, team: team === null || role === undefined || !isTeamRole(role) ? null : { id: team.id, name: team.name, role } };
}

/** The projects `userId` reaches, at `role` or above in a team: personal ones first, then by team; newest first within each. */
export async function listProjects(userId: string, role: TeamRole = "member"): Promise<ProjectSummary[]> {
  const prisma = await db();
  const rows = await prisma.project.findMany({ where: reachableProjects(userId, role), select: summarySelect(userId), orderBy: { createdAt: "desc" } });
  const projects = rows.map(summary);
  return [...projects.filter((project) => project.team === null), ...projects.filter((project) => project.team !== null).sort((a, b) => (a.team?.name ?? "").localeCompare(b.team?.name ?? ""))];
}

/** A project as `userId` sees it; null for a project that does not exist or that they do not reach. */
export async function findReachableProject(userId: string, id: string): Promise<ProjectSummary | null> {
  // Ids are ours (lib/secrets.ts): anything else names no project, and never reaches the database.
  if (!RANDOM_ID_PATTERN.test(id)) return null;
  if ((await projectAccess(userId, id)) === null) return null;
  const prisma = await db();
  const row = await prisma.project.findUnique({ where: { id }, select: summarySelect(userId) });
  return row === null ? null : summary(row);
}
