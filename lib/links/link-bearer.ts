import type { KeyObject } from "node:crypto";
import { decodeJwt, errors as joseErrors, jwtVerify, SignJWT, type JWTHeaderParameters } from "jose";
import type { Config } from "../config";
import { ApiError, invalidToken } from "../errors";
import { upstreamClaim, type UpstreamAccount } from "../identity/upstream-account";
import { resolveProjectId } from "../projects/resolve-project";
import { randomId } from "../secrets";
import { LINK_JWT_ALGORITHM, publishedKeys, recordSignature, signingKey } from "../signing-keys/signing-keys";

// The link bearer: a JWT (RFC 7519) signed by the service, naming one link (`sub`) of one
// project (`aud`, `project_id`) and its team if it has one (`team_id`), the account that approved it (`account_id`: RFC 9068 §2.2 would
// put the resource owner in `sub`, which names the link for existing verifiers) and, as RFC 9068
// §2.2 requires, the client it was issued to (`client_id`: the id of the access token that made
// the link), and, for an account that signs in through the platform's identity provider, who it
// is there (`account_upstream`: lib/identity/upstream-account.ts). Its holder reads the project
// at GET /api/projects/{id}.

// RFC 9068's media type for JWT access tokens: a verifier can tell a link bearer from any other
// JWT signed by the same keys.
export const LINK_JWT_TYPE = "at+jwt";

/**
 * `accountId`: the account behind the access token that made the link (its approver, or the
 * person who made the token); `upstream`: that account at the platform's identity provider.
 */
export type LinkClaims = { linkId: string; projectId: string; teamId: string | null; clientId: string; accountId: string; upstream: UpstreamAccount | null; expiresAt: Date };

/** A bearer whose signature and claims hold for the project it was presented for. */
export type VerifiedLinkBearer = { linkId: string; projectId: string; expiresAt: number };

/** The audience of a link bearer: the project resource it opens (RFC 8707 style). */
export const linkAudience = (cfg: Config, projectId: string) => `${cfg.appUrl}/api/projects/${projectId}`;

export async function signLinkBearer(cfg: Config, claims: LinkClaims): Promise<string> {
  const key = await signingKey(cfg);
  // Recorded before the bearer exists: the key stays published for as long as the bearer lives.
  await recordSignature(key.kid, claims.expiresAt);
  const team = claims.teamId === null ? {} : { team_id: claims.teamId };
  return new SignJWT({ project_id: claims.projectId, ...team, client_id: claims.clientId, account_id: claims.accountId, ...upstreamClaim(claims.upstream) })
    .setProtectedHeader({ alg: LINK_JWT_ALGORITHM, kid: key.kid, typ: LINK_JWT_TYPE })
    .setIssuer(cfg.appUrl)
    .setAudience(linkAudience(cfg, claims.projectId))
    .setSubject(claims.linkId)
    .setIssuedAt()
    .setExpirationTime(Math.floor(claims.expiresAt.getTime() / 1000))
    .setJti(randomId())
    .sign(key.privateKey);
}

async function verificationKey(header: JWTHeaderParameters): Promise<KeyObject> {
  const find = (keys: { kid: string; publicKey: KeyObject }[]) => keys.find((key) => key.kid === header.kid);
  // A kid this process has not seen may be another instance's new key: look once more.
  const key = find(await publishedKeys()) ?? find(await publishedKeys("recheck"));
  if (key === undefined) throw invalidToken("The bearer token was not signed by a key of this service.");
  return key.publicKey;
}

const invalidBearer = () => invalidToken("The bearer token is not valid for this project.");

/** The link and expiry (ms) of a valid bearer for `projectId`; anything else is a 401. */
async function verifyLinkBearer(cfg: Config, jwt: string, projectId: string): Promise<VerifiedLinkBearer> {
  try {
    const { payload } = await jwtVerify(jwt, verificationKey, {
      algorithms: [LINK_JWT_ALGORITHM],
      typ: LINK_JWT_TYPE,
      issuer: cfg.appUrl,
      audience: linkAudience(cfg, projectId),
      requiredClaims: ["sub", "iat", "exp", "jti"],
    });
    if (payload.project_id !== projectId || payload.sub === undefined || payload.exp === undefined) throw invalidBearer();
    return { linkId: payload.sub, projectId, expiresAt: payload.exp * 1000 };
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (error instanceof joseErrors.JWTExpired) throw invalidToken("The bearer token has expired. Create the link again.");
    if (error instanceof joseErrors.JOSEError) throw invalidBearer();
    throw error;
  }
}

/** The `project_id` a JWT claims, unverified: only a hint of which project to verify it for. */
function claimedProjectId(jwt: string): unknown {
  try {
    return decodeJwt(jwt).project_id;
  } catch {
    return undefined;
  }
}

/**
 * verifyLinkBearer for the project a path names, which an existing client may name by the id of
 * an init approved into it (lib/projects/resolve-project.ts). A bearer naming the path's own id,
 * the usual case, costs no lookup; the bearer is always verified for the project it names.
 */
export async function verifyLinkBearerForPath(cfg: Config, jwt: string, pathProjectId: string): Promise<VerifiedLinkBearer> {
  const claimed = claimedProjectId(jwt);
  // Verified first: a forged or garbage bearer costs no database read.
  const verified = await verifyLinkBearer(cfg, jwt, typeof claimed === "string" ? claimed : pathProjectId);
  if (verified.projectId !== pathProjectId && (await resolveProjectId(pathProjectId)) !== verified.projectId) throw invalidBearer();
  return verified;
}
