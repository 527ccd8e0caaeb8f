import type { Config } from "../config";
import { db } from "../db";
import { hashSecret, randomId, randomSecret } from "../secrets";

// Access tokens carry a recognisable prefix so that secret scanners can find leaked ones.
export const ACCESS_TOKEN_PREFIX = "ilat_";

export type IssuedAccessToken = { id: string; token: string; expiresAt: Date };

/** A new token scoped to one project (256 random bits); only its SHA-256 is stored. */
export async function issueProjectAccessToken(cfg: Config, userId: string, projectId: string, name: string): Promise<IssuedAccessToken> {
  const prisma = await db();
  const token = randomSecret(ACCESS_TOKEN_PREFIX);
  const now = Date.now();
  const expiresAt = new Date(now + cfg.accessTokenLifetimeMs);
  const row = await prisma.accessToken.create({
    data: {
      id: randomId(),
      tokenHash: hashSecret(token),
      name: name.slice(0, 100),
      userId,
      projectId,
      createdAt: new Date(now),
      expiresAt,
    },
    select: { id: true },
  });
  return { id: row.id, token, expiresAt };
}

export async function deleteAccessToken(id: string): Promise<void> {
  const prisma = await db();
  await prisma.accessToken.deleteMany({ where: { id } });
}
