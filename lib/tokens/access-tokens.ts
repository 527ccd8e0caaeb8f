import { z } from "zod";
import type { Config } from "../config";
import { db } from "../db";
import { ApiError } from "../http/errors";
import { findOwnedProject } from "../projects/projects";
import { hashSecret, RANDOM_ID_PATTERN, randomId, randomSecret } from "../secrets";
import { UNSAFE_CHARACTERS } from "../text";

// Access tokens: the API credential of Create Project Link. Two sources: the token the
// initiating client collects after approval (scoped to its project), and tokens a person makes
// on the settings page. Only the SHA-256 is stored; the token is shown once.

// A recognisable prefix lets secret scanners find leaked tokens.
export const ACCESS_TOKEN_PREFIX = "ilat_";
const ACCESS_TOKEN_PATTERN = /^ilat_[A-Za-z0-9_-]{43}$/;

export const TOKEN_NAME_MAX = 100;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Lifetimes offered on the settings page, in days; null never expires. */
export const TOKEN_LIFETIME_CHOICES = [7, 30, 90, 365, null] as const;

export const newTokenSchema = z.object({
  name: z
    .string({ error: "is required" })
    .trim()
    .min(1, { error: "is required" })
    .max(TOKEN_NAME_MAX, { error: `must be at most ${TOKEN_NAME_MAX} characters` })
    .refine((value) => !UNSAFE_CHARACTERS.test(value), { error: "must not contain control characters" }),
  // "all" for every project of the person, else one project's id.
  scope: z.string({ error: "is required" }).min(1, { error: "is required" }).max(100),
  lifetime: z.enum(["7", "30", "90", "365", "never"], { error: "must be 7, 30, 90 or 365 days, or never" }),
});

export type NewToken = z.infer<typeof newTokenSchema>;

export type IssuedAccessToken = { id: string; token: string; expiresAt: Date | null };

async function storeToken(userId: string, projectId: string | null, name: string, expiresAt: Date | null): Promise<IssuedAccessToken> {
  const prisma = await db();
  const token = randomSecret(ACCESS_TOKEN_PREFIX);
  const id = randomId();
  await prisma.accessToken.create({
    data: { id, tokenHash: hashSecret(token), name: name.slice(0, TOKEN_NAME_MAX), userId, projectId, createdAt: new Date(), expiresAt },
  });
  return { id, token, expiresAt };
}

/** The token a client collects after its init is approved: one project, ACCESS_TOKEN_LIFETIME_DAYS. */
export async function issueProjectAccessToken(cfg: Config, userId: string, projectId: string, name: string): Promise<IssuedAccessToken & { expiresAt: Date }> {
  const expiresAt = new Date(Date.now() + cfg.accessTokenLifetimeMs);
  return { ...(await storeToken(userId, projectId, name, expiresAt)), expiresAt };
}

/** A token made on the settings page, for all the person's projects or one of them. */
export async function createAccessToken(userId: string, input: NewToken): Promise<IssuedAccessToken> {
  let projectId: string | null = null;
  if (input.scope !== "all") {
    const project = await findOwnedProject(userId, input.scope);
    if (project === null) throw new ApiError("not_found", "You have no project with this id.");
    projectId = project.id;
  }
  const expiresAt = input.lifetime === "never" ? null : new Date(Date.now() + Number(input.lifetime) * DAY_MS);
  return storeToken(userId, projectId, input.name, expiresAt);
}

export async function deleteAccessToken(id: string): Promise<void> {
  const prisma = await db();
  await prisma.accessToken.deleteMany({ where: { id } });
}

/** A presented token that is valid now: who it acts for and what it reaches. */
export type AuthenticatedToken = { id: string; userId: string; projectId: string | null; expiresAt: Date | null };

/**
 * The token behind `Authorization: Bearer <token>`; a 401 if absent, malformed, unknown,
 * expired or revoked. Reads only: a request that fails later must not have written anything.
 */
export async function authenticateAccessToken(token: string | null): Promise<AuthenticatedToken> {
  if (token === null) throw new ApiError("unauthorized", "Send an access token as Authorization: Bearer <token>.");
  const invalid = new ApiError("invalid_token", "The access token is not valid.");
  if (!ACCESS_TOKEN_PATTERN.test(token)) throw invalid;
  const prisma = await db();
  const row = await prisma.accessToken.findUnique({
    where: { tokenHash: hashSecret(token) },
    select: { id: true, userId: true, projectId: true, expiresAt: true, revokedAt: true },
  });
  if (row === null) throw invalid;
  if (row.revokedAt !== null) throw new ApiError("invalid_token", "The access token has been revoked.");
  if (row.expiresAt !== null && row.expiresAt.getTime() <= Date.now()) throw new ApiError("invalid_token", "The access token has expired.");
  return { id: row.id, userId: row.userId, projectId: row.projectId, expiresAt: row.expiresAt };
}

// Last-used times are for people, to the minute: a busy client does not write on every request.
const LAST_USED_RESOLUTION_MS = 60_000;

/** Notes that a request with this token succeeded. */
export async function recordTokenUse(id: string): Promise<void> {
  const prisma = await db();
  const now = Date.now();
  await prisma.accessToken.updateMany({
    where: { id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: new Date(now - LAST_USED_RESOLUTION_MS) } }] },
    data: { lastUsedAt: new Date(now) },
  });
}

export type AccessTokenSummary = {
  id: string;
  name: string;
  project: { id: string; name: string } | null;
  createdAt: Date;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
};

export async function listAccessTokens(userId: string): Promise<AccessTokenSummary[]> {
  const prisma = await db();
  return prisma.accessToken.findMany({
    where: { userId },
    select: { id: true, name: true, project: { select: { id: true, name: true } }, createdAt: true, expiresAt: true, lastUsedAt: true, revokedAt: true },
    orderBy: { createdAt: "desc" },
  });
}

/** Revokes one of the person's tokens at once; revoking a revoked token changes nothing. */
export async function revokeAccessToken(userId: string, id: string): Promise<void> {
  if (!RANDOM_ID_PATTERN.test(id)) throw new ApiError("not_found", "You have no access token with this id.");
  const prisma = await db();
  const token = await prisma.accessToken.findFirst({ where: { id, userId }, select: { revokedAt: true } });
  if (token === null) throw new ApiError("not_found", "You have no access token with this id.");
  if (token.revokedAt !== null) return;
  await prisma.accessToken.updateMany({ where: { id, userId, revokedAt: null }, data: { revokedAt: new Date() } });
}
