import { db, isUniqueViolation } from "../database/db";
import { RANDOM_ID_PATTERN } from "../secrets";
import { reachableProjects } from "../teams/team-access";

// Existing clients of the original platform keep the init's id as the project's id, also when
// the person approved the init into a project they already had (a new project takes the init's
// id anyway: lib/init/approve-init.ts). So wherever a project id arrives from a client, it may
// be the id of an init approved into that project: the approved init, or once the sweep has
// deleted it, the alias the sweep kept (docs/api.md, Compatibility with existing clients).

/**
 * The id of the project `id` names: a project's own id, or the id of an init approved into a
 * project. With `userId`, only the projects that person reaches count (lib/teams/team-access.ts), and anything else is null, as
 * a project that does not exist is: the caller's access check, unchanged.
 */
export async function resolveProjectId(id: string, userId?: string): Promise<string | null> {
  if (!RANDOM_ID_PATTERN.test(id)) return null;
  const prisma = await db();
  const owner = userId === undefined ? {} : reachableProjects(userId);
  const project = await prisma.project.findFirst({ where: { id, ...owner }, select: { id: true } });
  if (project !== null) return project.id;
  const init = await prisma.init.findFirst({ where: { id, status: "done", project: { is: owner } }, select: { projectId: true } });
  if (init?.projectId) return init.projectId;
  const alias = await prisma.projectAlias.findFirst({ where: { id, project: { is: owner } }, select: { projectId: true } });
  return alias?.projectId ?? null;
}

/**
 * Before the sweep deletes inits that expired before `cutoff`, keeps the id of each one that
 * was approved into an existing project, so that its client's project id still resolves.
 * Idempotent: instances sweeping at once keep each alias once.
 */
export async function keepProjectAliases(cutoff: Date): Promise<number> {
  const prisma = await db();
  const approved = await prisma.init.findMany({
    where: { expiresAt: { lt: cutoff }, status: "done", projectId: { not: null }, NOT: { projectId: { equals: prisma.init.fields.id } } },
    select: { id: true, projectId: true },
  });
  if (approved.length === 0) return 0;
  const kept = new Set((await prisma.projectAlias.findMany({ where: { id: { in: approved.map((init) => init.id) } }, select: { id: true } })).map((alias) => alias.id));
  let added = 0;
  for (const init of approved) {
    if (init.projectId === null || kept.has(init.id)) continue;
    try {
      await prisma.projectAlias.create({ data: { id: init.id, projectId: init.projectId, createdAt: new Date() } });
      added++;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  return added;
}
