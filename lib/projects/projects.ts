import type { Config } from "../config";
import { db } from "../database/db";
import { RANDOM_ID_PATTERN } from "../secrets";

// Projects as their owner sees them, on the pages and where a person picks one.

export type ProjectSummary = { id: string; name: string; createdAt: Date };

export const projectUrl = (cfg: Config, id: string) => `${cfg.appUrl}/projects/${id}`;

export async function listProjects(ownerId: string): Promise<ProjectSummary[]> {
  const prisma = await db();
  return prisma.project.findMany({ where: { ownerId }, select: { id: true, name: true, createdAt: true }, orderBy: { createdAt: "desc" } });
}

/** A project as its owner sees it; null for a project that does not exist or is someone else's. */
export async function findOwnedProject(ownerId: string, id: string): Promise<ProjectSummary | null> {
  // Ids are ours (lib/secrets.ts): anything else names no project, and never reaches the database.
  if (!RANDOM_ID_PATTERN.test(id)) return null;
  const prisma = await db();
  return prisma.project.findFirst({ where: { id, ownerId }, select: { id: true, name: true, createdAt: true } });
}
