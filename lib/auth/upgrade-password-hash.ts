import type { Config } from "../config";
import { db } from "../database/db";
import { hashPassword, needsRehash } from "./passwords";

// A password hashed at an older, lower scrypt cost is hashed again at today's on the next
// successful sign-in: the only moment the service holds the password. The update is
// conditional on the old hash, so a password changed meanwhile is never overwritten.

export async function upgradePasswordHash(cfg: Config, userId: string, storedHash: string, password: string): Promise<void> {
  if (!needsRehash(cfg, storedHash)) return;
  const prisma = await db();
  await prisma.user.updateMany({ where: { id: userId, passwordHash: storedHash }, data: { passwordHash: await hashPassword(cfg, password) } });
}
