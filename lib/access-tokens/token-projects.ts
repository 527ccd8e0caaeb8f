import { findReachableProject, listProjects, type ProjectSummary } from "../projects/projects";
import type { TokenProjects } from "../projects/schemas";
import { listTeams } from "../teams/teams";
import { recordTokenUse, type AuthenticatedToken } from "./authenticate-access-token";

// GET /api/projects: what a CLI may use after its login, read as the token's person reaches it
// now (lib/teams/team-access.ts): the one project of a token made for one, or every project of
// its person, personal and their teams', with those teams and their roles.

const answered = (project: ProjectSummary) => ({ id: project.id, name: project.name, created_at: project.createdAt.getTime(), team_id: project.team?.id ?? null });

export async function projectsForToken(token: AuthenticatedToken): Promise<TokenProjects> {
  await recordTokenUse(token.id);
  if (token.projectId !== null) {
    const project = await findReachableProject(token.userId, token.projectId);
    if (project === null) return { projects: [], teams: [] };
    return { projects: [answered(project)], teams: project.team === null ? [] : [project.team] };
  }
  const [projects, teams] = await Promise.all([listProjects(token.userId), listTeams(token.userId)]);
  return { projects: projects.map(answered), teams: teams.map(({ id, name, role }) => ({ id, name, role })) };
}
