import { z } from "zod";
import type { Config } from "../config";
import { db, isUniqueViolation } from "../db";
import { ApiError } from "../http/errors";
import { assertUnderLimit, recordEvent } from "../limits/rate-limit";
import { limitRules } from "../limits/rules";
import { projectPublicKey } from "../projects/keys";
import { RANDOM_ID_PATTERN, randomId } from "../secrets";
import { recordTokenUse, type AuthenticatedToken } from "../tokens/access-tokens";
import { signLinkBearer, verifyLinkBearer } from "./signing-keys";

// Create Project Link and what a link bearer opens. A link is one client of one project,
// named by the client's `iv`; its bearer is a JWT whose `sub` is the link's id. Every use of a
// bearer reads the link, so revoking the link or its access token takes effect at once.

// Existing clients send 16 random bytes as 32 hexadecimal characters.
export const ivSchema = z
  .string()
  .regex(/^[0-9a-fA-F]{32,128}$/, { error: "must be 32 to 128 hexadecimal characters" })
  .transform((iv) => iv.toLowerCase());

const USER_AGENT_MAX = 300;

/** The success answer of Create Project Link. */
export type LinkAnswer = { success: true; bearer: string; public: string; public_fingerprint: string; link_id: string; expires_at: number };

const projectNotReached = () => new ApiError("not_found", "No project with this id exists, or the access token does not reach it.");

async function reachableProjectId(token: AuthenticatedToken, projectId: string): Promise<string> {
  if (!RANDOM_ID_PATTERN.test(projectId) || (token.projectId !== null && token.projectId !== projectId)) throw projectNotReached();
  const prisma = await db();
  const project = await prisma.project.findFirst({ where: { id: projectId, ownerId: token.userId }, select: { id: true } });
  if (project === null) throw projectNotReached();
  return project.id;
}

type ExistingLink = { id: string; accessTokenId: string; revokedAt: Date | null };

/** An existing (project, iv) link is this token's retry, or a conflict. */
function reuse(link: ExistingLink, token: AuthenticatedToken): string {
  if (link.accessTokenId !== token.id) throw new ApiError("link_conflict", "Another client already uses this iv for this project. Choose a new random iv.");
  if (link.revokedAt !== null) throw new ApiError("link_revoked", "This link has been revoked. Choose a new random iv to link again.");
  return link.id;
}

/**
 * Links the token's client to a project under `iv`. The same token repeating the request gets
 * the same link (a fresh bearer for it): retries are safe.
 */
export async function createProjectLink(cfg: Config, token: AuthenticatedToken, projectId: string, iv: string, userAgent: string | null): Promise<LinkAnswer> {
  const project = await reachableProjectId(token, projectId);
  const prisma = await db();
  const where = { projectId_iv: { projectId: project, iv } };
  const select = { id: true, accessTokenId: true, revokedAt: true };
  const existing = await prisma.projectLink.findUnique({ where, select });
  const retriedLinkId = existing === null ? null : reuse(existing, token);
  const linksPerToken = limitRules(cfg).linksPerToken;
  // Counted only once the link is made or reused: a request that loses the race for this
  // (project, iv) to another token is refused with a 409 and must write nothing.
  await assertUnderLimit(linksPerToken, token.id);
  // Never a link without a key: this waits for a key still being generated.
  const key = await projectPublicKey(cfg, project);
  const newLink = async (): Promise<string> => {
    try {
      const data = { id: randomId(), projectId: project, iv, accessTokenId: token.id, userAgent: userAgent?.slice(0, USER_AGENT_MAX) ?? null, createdAt: new Date() };
      return (await prisma.projectLink.create({ data, select: { id: true } })).id;
    } catch (error) {
      // A concurrent request made the link first: the unique (project, iv) decides.
      if (!isUniqueViolation(error)) throw error;
      return reuse(await prisma.projectLink.findUniqueOrThrow({ where, select }), token);
    }
  };
  const linkId = retriedLinkId ?? (await newLink());
  await recordEvent(linksPerToken, token.id);
  await recordTokenUse(token.id);
  // A bearer never outlives the access token that made it.
  const lifetimeEnd = Date.now() + cfg.linkLifetimeMs;
  const expiresAt = new Date(token.expiresAt === null ? lifetimeEnd : Math.min(lifetimeEnd, token.expiresAt.getTime()));
  const bearer = await signLinkBearer(cfg, { linkId, projectId: project, expiresAt });
  return { success: true, bearer: `Bearer ${bearer}`, public: key.pem, public_fingerprint: key.fingerprint, link_id: linkId, expires_at: Math.floor(expiresAt.getTime() / 1000) * 1000 };
}

/** What `GET /api/projects/{projectId}` answers to a link bearer. */
export type LinkedProject = {
  id: string;
  name: string;
  created_at: number;
  public: string;
  public_fingerprint: string;
  link: { id: string; iv: string; created_at: number; expires_at: number };
};

const LAST_USED_RESOLUTION_MS = 60_000;

export async function readLinkedProject(cfg: Config, bearer: string | null, projectId: string): Promise<LinkedProject> {
  if (bearer === null) throw new ApiError("unauthorized", "Send the link's bearer as Authorization: Bearer <JWT>.");
  const { linkId, expiresAt } = await verifyLinkBearer(cfg, bearer, projectId);
  const prisma = await db();
  const link = await prisma.projectLink.findUnique({
    where: { id: linkId },
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
  if (link === null || link.projectId !== projectId || link.project.key === null) throw new ApiError("invalid_token", "This link no longer exists.");
  if (link.revokedAt !== null) throw new ApiError("invalid_token", "This link has been revoked.");
  const { accessToken } = link;
  if (accessToken.revokedAt !== null || (accessToken.expiresAt !== null && accessToken.expiresAt.getTime() <= now)) {
    throw new ApiError("invalid_token", "The access token that made this link has been revoked or has expired.");
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
    link: { id: link.id, iv: link.iv, created_at: link.createdAt.getTime(), expires_at: expiresAt },
  };
}

/** Whether a link's bearer works: it dies with its own revocation or its access token's end. */
export type LinkStatus = "active" | "revoked" | "token_revoked" | "token_expired";

export type LinkSummary = {
  id: string;
  iv: string;
  userAgent: string | null;
  tokenName: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  status: LinkStatus;
};

function linkStatus(revokedAt: Date | null, token: { revokedAt: Date | null; expiresAt: Date | null }, now: number): LinkStatus {
  if (revokedAt !== null) return "revoked";
  if (token.revokedAt !== null) return "token_revoked";
  if (token.expiresAt !== null && token.expiresAt.getTime() <= now) return "token_expired";
  return "active";
}

/** The project's links, newest first, for its owner's page. */
export async function listProjectLinks(ownerId: string, projectId: string): Promise<LinkSummary[]> {
  const prisma = await db();
  const links = await prisma.projectLink.findMany({
    where: { projectId, project: { ownerId } },
    select: {
      id: true,
      iv: true,
      userAgent: true,
      createdAt: true,
      lastUsedAt: true,
      revokedAt: true,
      accessToken: { select: { name: true, revokedAt: true, expiresAt: true } },
    },
    orderBy: { createdAt: "desc" },
  });
  const now = Date.now();
  return links.map(({ accessToken, ...link }) => ({ ...link, tokenName: accessToken.name, status: linkStatus(link.revokedAt, accessToken, now) }));
}

/** Revokes one link of the owner's project; its bearer fails from the next request on. */
export async function revokeProjectLink(ownerId: string, projectId: string, linkId: string): Promise<void> {
  if (!RANDOM_ID_PATTERN.test(projectId) || !RANDOM_ID_PATTERN.test(linkId)) throw new ApiError("not_found", "This project has no link with this id.");
  const prisma = await db();
  const link = await prisma.projectLink.findFirst({ where: { id: linkId, projectId, project: { ownerId } }, select: { revokedAt: true } });
  if (link === null) throw new ApiError("not_found", "This project has no link with this id.");
  if (link.revokedAt !== null) return;
  await prisma.projectLink.updateMany({ where: { id: linkId, revokedAt: null }, data: { revokedAt: new Date() } });
}
