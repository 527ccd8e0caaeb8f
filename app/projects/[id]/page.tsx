import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { currentUser } from "@/lib/auth/current";
import { findOwnedProject } from "@/lib/projects/projects";

export const metadata: Metadata = { title: "Project" };

export default async function ProjectPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const user = await currentUser();
  if (user === null) redirect(`/signin?returnTo=${encodeURIComponent(`/projects/${id}`)}`);
  // Someone else's project reads exactly like one that does not exist.
  const project = await findOwnedProject(user.id, id);
  if (project === null) notFound();
  return (
    <>
      <h1>{project.name}</h1>
      <dl className="card facts">
        <dt>Project id</dt>
        <dd>
          <code>{project.id}</code>
        </dd>
        <dt>Created</dt>
        <dd>{project.createdAt.toUTCString()}</dd>
      </dl>
    </>
  );
}
