import { resourceServerRecord } from "../activity/record-activity";
import { db, inOneTransaction } from "../database/db";
import { notFound } from "../errors";
import { hashSecret, randomId, randomSecret } from "../secrets";
import { reachableProjects } from "../teams/team-access";
import { RESOURCE_SERVER_ID_PATTERN, RESOURCE_SERVER_ID_PREFIX, RESOURCE_SERVER_SECRET_PREFIX } from "./authenticate-resource-server";
import type { NewResourceServer } from "./schemas";

// Resource-server credentials on /settings/resource-servers: a project's owner makes one for the
// platform's API, for the projects it may check; lists them with their last use; revokes one.
// The secret is shown once; only its SHA-256 is stored.

type ProjectName = { id: string; name: string };

/** What the new-credential form gets back: the secret itself, this once and never again. */
export type NewResourceServerAnswer = { client_id: string; client_secret: string; name: string; projects: ProjectName[] };

export async function createResourceServer(userId: string, input: NewResourceServer): Promise<NewResourceServerAnswer> {
  const prisma = await db();
  const projects = await prisma.project.findMany({ where: { id: { in: input.projects }, ...reachableProjects(userId, "admin") }, select: { id: true, name: true }, orderBy: { name: "asc" } });
  // Someone else's project, or a team's where the person is a member only, reads as one that does not exist.
  if (projects.length !== input.projects.length) throw notFound("You have no project with this id.");
  const clientId = RESOURCE_SERVER_ID_PREFIX + randomId();
  const secret = randomSecret(RESOURCE_SERVER_SECRET_PREFIX);
  await inOneTransaction(
    prisma.resourceServerCredential.create({
      data: { id: clientId, secretHash: hashSecret(secret), name: input.name, userId, createdAt: new Date(), projects: { create: projects.map((project) => ({ projectId: project.id })) } },
      select: { id: true },
    }),
    resourceServerRecord(prisma, clientId, "resource_server_created"),
  );
  return { client_id: clientId, client_secret: secret, name: input.name, projects };
}

export type ResourceServerSummary = {
  /** The client_id. */
  id: string;
  name: string;
  projects: ProjectName[];
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
};

export async function listResourceServers(userId: string): Promise<ResourceServerSummary[]> {
  const prisma = await db();
  const rows = await prisma.resourceServerCredential.findMany({
    where: { userId },
    select: { id: true, name: true, createdAt: true, lastUsedAt: true, revokedAt: true, projects: { select: { project: { select: { id: true, name: true } } } } },
    orderBy: { createdAt: "desc" },
  });
  return rows.map(({ projects, ...row }) => ({ ...row, projects: projects.map((scope) => scope.project).sort((a, b) => a.name.localeCompare(b.name)) }));
}

/** Revokes one of the person's credentials at once, in their activity too; revoking a revoked one changes nothing. */
export async function revokeResourceServer(userId: string, id: string): Promise<void> {
  if (!RESOURCE_SERVER_ID_PATTERN.test(id)) throw notFound("You have no resource-server credential with this id.");
  const prisma = await db();
  const credential = await prisma.resourceServerCredential.findFirst({ where: { id, userId }, select: { revokedAt: true } });
  if (credential === null) throw notFound("You have no resource-server credential with this id.");
  if (credential.revokedAt !== null) return;
  await inOneTransaction(
    prisma.resourceServerCredential.updateMany({ where: { id, userId, revokedAt: null }, data: { revokedAt: new Date() } }),
    resourceServerRecord(prisma, id, "resource_server_revoked"),
  );
}
