import { db } from "../database/db";
import { notFound } from "../errors";
import { resolveProjectId } from "./resolve-project";

/**
 * Renames a project of `ownerId`'s (found by its id or an alias); anyone else's, or none, is
 * not_found and changes nothing. Only the name changes: its links, key and tokens stay as they are.
 */
export async function renameProject(ownerId: string, pathId: string, name: string): Promise<string> {
  const projectId = await resolveProjectId(pathId, ownerId);
  if (projectId === null) throw notFound("You have no project with this id.");
  const prisma = await db();
  const renamed = await prisma.project.updateMany({ where: { id: projectId, ownerId }, data: { name } });
  if (renamed.count === 0) throw notFound("You have no project with this id.");
  return projectId;
}
