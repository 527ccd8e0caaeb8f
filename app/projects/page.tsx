import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { currentUser } from "@/lib/api/page-session";
import { withReturnTo } from "@/lib/api/return-to";
import { listProjects } from "@/lib/projects/projects";
import { LocalTime } from "../local-time";

export const metadata: Metadata = { title: "Projects" };

export default async function ProjectsPage() {
  const user = await currentUser();
  if (user === null) redirect(withReturnTo("/signin", "/projects"));
  const projects = await listProjects(user.id);
  return (
    <>
      <h1>Your projects</h1>
      {projects.length === 0 ? (
        <p className="muted">No projects yet. Approving a client from your terminal creates one.</p>
      ) : (
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
      )}
    </>
  );
}
