import { decodeJwt } from "jose";
import { ACCESS_TOKEN_PATTERN, recordTokenUse, type AuthenticatedToken } from "../access-tokens/authenticate-access-token";
import type { Config } from "../config";
import { db } from "../database/db";
import { ApiError } from "../errors";
import { upstreamAccount, upstreamClaim } from "../identity/upstream-account";
import { consumeRateLimit } from "../limits/rate-limit";
import { limitRules } from "../limits/rules";
import { verifyLinkBearerForPath } from "../links/link-bearer";
import { recordResourceServerUse, resourceServerReaches, type AuthenticatedResourceServer } from "../resource-servers/authenticate-resource-server";
import { hashSecret } from "../secrets";
import { projectAccess, teamIdOf } from "../teams/team-access";
import { findRefreshToken, isRefreshable, REFRESH_TOKEN_PREFIX } from "./refresh-tokens";
import type { IntrospectionAnswer, IntrospectionBody } from "./schemas";

// Token introspection (RFC 7662): a verifier asks whether an access token, a refresh token or a
// link bearer is usable now. Every answer is read from the database (no cache), so a
// revocation shows at once on every instance. The caller authenticates (§2.1) with a resource
// server's credential (client_secret_basic, lib/resource-servers/) or an access token of its
// owner's (Authorization: Bearer): it learns `active: true` only for tokens of the projects that
// credential reaches; for any other token the answer is `active: false` and nothing more, the
// same as for a token that does not exist (§2.2).

const INACTIVE: IntrospectionAnswer = { active: false };

/** Who asks (§2.1): a resource server's credential, or an access token of a project's owner. */
export type IntrospectionCaller = { resourceServer: AuthenticatedResourceServer } | { accessToken: AuthenticatedToken };

/** What a usable token says of itself, and whose project it is. */
type Described = { projectId: string | null; userId: string; answer: Omit<IntrospectionAnswer, "active"> };

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** A verified link bearer's claims (signature, issuer, type, audience, expiry); null for anything else. */
export async function verifiedLinkBearer(cfg: Config, jwt: string) {
  let claims: ReturnType<typeof decodeJwt>;
  try {
    claims = decodeJwt(jwt);
  } catch {
    return null;
  }
  if (typeof claims.project_id !== "string") return null;
  try {
    const verified = await verifyLinkBearerForPath(cfg, jwt, claims.project_id);
    const jkt = typeof claims.cnf === "object" && claims.cnf !== null && "jkt" in claims.cnf && typeof claims.cnf.jkt === "string" ? claims.cnf.jkt : null;
    return { ...verified, clientId: typeof claims.client_id === "string" ? claims.client_id : undefined, issuedAt: claims.iat, jkt };
  } catch (error) {
    if (error instanceof ApiError) return null;
    throw error;
  }
}

const tokenType = (jkt: string | null) => (jkt === null ? "Bearer" : "DPoP");
const confirmation = (jkt: string | null) => (jkt === null ? {} : { cnf: { jkt } });

async function describeAccessToken(cfg: Config, token: string): Promise<Described | null> {
  const prisma = await db();
  const row = await prisma.accessToken.findUnique({
    where: { tokenHash: hashSecret(token) },
    select: { userId: true, projectId: true, createdAt: true, expiresAt: true, revokedAt: true, dpopJkt: true, refreshTokens: { select: { login: { select: { clientId: true } } }, take: 1 } },
  });
  if (row === null || row.revokedAt !== null || (row.expiresAt !== null && row.expiresAt.getTime() <= Date.now())) return null;
  const login = row.refreshTokens[0]?.login;
  // The token's own binding (RFC 9449): a token picked up with a proof has no login.
  const jkt = row.dpopJkt;
  return {
    projectId: row.projectId,
    userId: row.userId,
    answer: {
      token_type: tokenType(jkt),
      ...(login === undefined ? {} : { client_id: login.clientId }),
      sub: row.userId,
      account_id: row.userId,
      ...(row.projectId === null ? {} : { project_id: row.projectId }),
      iat: seconds(row.createdAt),
      ...(row.expiresAt === null ? {} : { exp: seconds(row.expiresAt) }),
      iss: cfg.appUrl,
      ...confirmation(jkt),
    },
  };
}

async function describeRefreshToken(cfg: Config, token: string): Promise<Described | null> {
  const stored = await findRefreshToken(token);
  if (stored === null || !isRefreshable(stored, Date.now())) return null;
  const { login } = stored;
  return {
    projectId: login.projectId,
    userId: login.userId,
    answer: {
      token_type: "refresh_token",
      client_id: login.clientId,
      sub: login.userId,
      account_id: login.userId,
      project_id: login.projectId,
      iat: seconds(stored.createdAt),
      exp: seconds(stored.expiresAt),
      iss: cfg.appUrl,
      ...confirmation(login.dpopJkt),
    },
  };
}

/** A link bearer is usable while its signature holds and its link and that link's access token do (as GET /api/projects/{id} reads them). */
async function describeLinkBearer(cfg: Config, jwt: string): Promise<Described | null> {
  const bearer = await verifiedLinkBearer(cfg, jwt);
  if (bearer === null) return null;
  const prisma = await db();
  const link = await prisma.projectLink.findUnique({
    where: { id: bearer.linkId },
    select: { projectId: true, revokedAt: true, accessToken: { select: { userId: true, revokedAt: true, expiresAt: true } } },
  });
  if (link === null || link.projectId !== bearer.projectId || link.revokedAt !== null) return null;
  const { accessToken } = link;
  if (accessToken.revokedAt !== null || (accessToken.expiresAt !== null && accessToken.expiresAt.getTime() <= Date.now())) return null;
  return {
    projectId: bearer.projectId,
    userId: accessToken.userId,
    answer: {
      token_type: tokenType(bearer.jkt),
      ...(bearer.clientId === undefined ? {} : { client_id: bearer.clientId }),
      sub: bearer.linkId,
      account_id: accessToken.userId,
      project_id: bearer.projectId,
      ...(bearer.issuedAt === undefined ? {} : { iat: bearer.issuedAt }),
      exp: Math.floor(bearer.expiresAt / 1000),
      iss: cfg.appUrl,
      ...confirmation(bearer.jkt),
    },
  };
}

function describeToken(cfg: Config, token: string): Promise<Described | null> {
  if (ACCESS_TOKEN_PATTERN.test(token)) return describeAccessToken(cfg, token);
  if (token.startsWith(REFRESH_TOKEN_PREFIX)) return describeRefreshToken(cfg, token);
  return describeLinkBearer(cfg, token);
}

/**
 * The caller's credential reaches the token's project: one of a resource server's projects; an
 * access token's one project, or every project its owner reaches (lib/teams/team-access.ts), while they do.
 */
async function covers(caller: IntrospectionCaller, token: Described): Promise<boolean> {
  if ("resourceServer" in caller) return token.projectId !== null && (await resourceServerReaches(caller.resourceServer.id, token.projectId));
  const { accessToken } = caller;
  if (accessToken.projectId !== null && token.projectId !== accessToken.projectId) return false;
  if (token.projectId === null) return token.userId === accessToken.userId;
  return (await projectAccess(accessToken.userId, token.projectId)) !== null;
}

/** Counts the introspection against the caller's credential, and notes its use. */
async function countUse(cfg: Config, caller: IntrospectionCaller): Promise<void> {
  if ("resourceServer" in caller) {
    await consumeRateLimit(limitRules(cfg).introspectionsPerResourceServer, caller.resourceServer.id);
    await recordResourceServerUse(caller.resourceServer.id);
    return;
  }
  await consumeRateLimit(limitRules(cfg).introspectionsPerToken, caller.accessToken.id);
  await recordTokenUse(caller.accessToken.id);
}

/** RFC 7662 §2.2's answer for `body.token`, counted against the caller's credential. */
export async function introspectToken(cfg: Config, caller: IntrospectionCaller, body: IntrospectionBody): Promise<IntrospectionAnswer> {
  await countUse(cfg, caller);
  const described = await describeToken(cfg, body.token);
  if (described === null || !(await covers(caller, described))) return INACTIVE;
  // Read now, as every other part of the answer is: an identity unlinked since is not named.
  const teamId = described.projectId === null ? null : await teamIdOf(described.projectId);
  return { active: true, ...described.answer, ...(teamId === null ? {} : { team_id: teamId }), ...upstreamClaim(await upstreamAccount(cfg, described.userId)) };
}
