import type { ProjectSummary } from "@/lib/projects/projects";

// The pages that list or offer projects show the personal ones, then each team's under its name,
// so that a project's name never has to say whose it is.

export type ProjectGroup = { team: ProjectSummary["team"]; projects: ProjectSummary[] };

/** `projects` by team, in the order their groups first appear (listProjects: personal ones first, then by team). */
export function groupByTeam(projects: ProjectSummary[]): ProjectGroup[] {
  const groups = new Map<string | null, ProjectGroup>();
  for (const project of projects) {
    const key = project.team?.id ?? null;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, { team: project.team, projects: [project] });
    else group.projects.push(project);
  }
  return [...groups.values()];
}

/** A group's name as the pages show it. */
export const groupLabel = (team: { name: string } | null) => (team === null ? "Personal" : `Team: ${team.name}`);
