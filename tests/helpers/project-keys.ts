import { config } from "@/lib/config";
import { db } from "@/lib/database/db";
import { prepareProjectKey, storedKey } from "@/lib/projects/project-keys";
import { randomId } from "@/lib/secrets";
import { createAccessToken } from "@/lib/access-tokens/issue-access-token";
import { approvedClient } from "./links";

// Accounts and projects for the key queue's tests (tests/api/projects/project-keys-*.test.ts).

/** The project's key, generated now, once it is stored, however long its generation takes (no bound). */
export async function keyOnceStored(projectId: string) {
  prepareProjectKey(config(), projectId);
  for (;;) {
    const key = await storedKey(projectId);
    if (key !== null) return key;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * A person with an approved client whose project has its key (so nothing of theirs is queued),
 * a personal token reaching all their projects, and `count` more projects with no key yet.
 */
export async function accountWithKeylessProjects(count: number) {
  const client = await approvedClient("First");
  await keyOnceStored(client.projectId);
  const personal = await createAccessToken(client.userId, { name: "everything", scope: "all", lifetime: "30" });
  const prisma = await db();
  const projects: string[] = [];
  for (let i = 0; i < count; i++) {
    const project = await prisma.project.create({ data: { id: randomId(), name: `Project ${i}`, ownerId: client.userId, createdAt: new Date() } });
    projects.push(project.id);
  }
  return { ...client, personalToken: personal.token, projects };
}

/** When each project's key was stored, ms; undefined for a project without one. */
export async function keyStoredAt(projectIds: string[]) {
  const prisma = await db();
  const rows = await prisma.projectKey.findMany({ where: { projectId: { in: projectIds } }, select: { projectId: true, createdAt: true } });
  return (projectId: string) => rows.find((row) => row.projectId === projectId)?.createdAt.getTime();
}
