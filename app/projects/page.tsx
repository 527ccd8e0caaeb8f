import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { currentUser } from "@/lib/api/page-session";
import { withReturnTo } from "@/lib/api/return-to";
import { listProjects, type ProjectSummary } from "@/lib/projects/projects";
import { LocalTime } from "../local-time";
import { groupByTeam, groupLabel } from "../project-groups";

export const metadata: Metadata = { title: "Projects" };

function ProjectList({ projects }: { projects: ProjectSummary[] }) {
  return (
    <ul className="card list">
      {projects.map((project) => (
        <li key={project.id}>
          <Link href={`/projects/${project.id}`}>{project.name}</Link>{" "}
          <span className="muted">
            created <LocalTime value={project.createdAt} />
          </span>
        </li>
      ))}
    </ul>
  );
}

export default async function ProjectsPage() {
  const user = await currentUser();
  if (user === null) redirect(withReturnTo("/signin", "/projects"));
  const projects = await listProjects(user.id);
  const groups = groupByTeam(projects);
  return (
    <>
      <h1>Your projects</h1>
      {projects.length === 0 ? (
        <p className="muted">No projects yet. Approving a client from your terminal creates one.</p>
      ) : groups.every((group) => group.team === null) ? (
        <ProjectList projects={projects} />
      ) : (
        // With teams, each team's projects under its name, which leads to the team's page.
        groups.map(({ team, projects: members }) => {
          const headingId = `projects-of-${team?.id ?? "personal"}`;
          return (
            <section key={headingId} aria-labelledby={headingId}>
              <h2 id={headingId}>{team === null ? groupLabel(team) : <Link href={`/teams/${team.id}`}>{groupLabel(team)}</Link>}</h2>
              <ProjectList projects={members} />
            </section>
          );
        })
      )}
    </>
  );
}
