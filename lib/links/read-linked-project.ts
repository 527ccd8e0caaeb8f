import { db } from "../database/db";
import { invalidToken } from "../errors";
import type { VerifiedLinkBearer } from "./link-bearer";
import type { LinkedProject } from "./schemas";

// GET /api/projects/{projectId}: what a link bearer opens. Every use reads the link, so
// revoking the link or its access token takes effect at once.


const LAST_USED_RESOLUTION_MS = 60_000;

export async function readLinkedProject(bearer: VerifiedLinkBearer): Promise<LinkedProject> {
  const prisma = await db();
  const link = await prisma.projectLink.findUnique({
    where: { id: bearer.linkId },
    select: {
      id: true,
      iv: true,
      projectId: true,
      createdAt: true,
      lastUsedAt: true,
      revokedAt: true,
      accessToken: { select: { revokedAt: true, expiresAt: true } },
      project: { select: { id: true, name: true, createdAt: true, key: { select: { publicKeyPem: true, fingerprint: true } } } },
    },
  });
  const now = Date.now();
  if (link === null || link.projectId !== bearer.projectId || link.project.key === null) throw invalidToken("This link no longer exists.");
  if (link.revokedAt !== null) throw invalidToken("This link has been revoked.");
  const { accessToken } = link;
  if (accessToken.revokedAt !== null || (accessToken.expiresAt !== null && accessToken.expiresAt.getTime() <= now)) {
    throw invalidToken("The access token that made this link has been revoked or has expired.");
  }
  if (link.lastUsedAt === null || link.lastUsedAt.getTime() < now - LAST_USED_RESOLUTION_MS) {
    await prisma.projectLink.updateMany({ where: { id: link.id }, data: { lastUsedAt: new Date(now) } });
  }
  return {
    id: link.project.id,
    name: link.project.name,
    created_at: link.project.createdAt.getTime(),
    public: link.project.key.publicKeyPem,
    public_fingerprint: link.project.key.fingerprint,
    link: { id: link.id, iv: link.iv, created_at: link.createdAt.getTime(), expires_at: bearer.expiresAt },
  };
}
