import type { KeyObject } from "node:crypto";
import { errors as joseErrors, jwtVerify, SignJWT, type JWTHeaderParameters } from "jose";
import type { Config } from "../config";
import { ApiError } from "../errors";
import { randomId } from "../secrets";
import { LINK_JWT_ALGORITHM, publishedKeys, signingKey } from "./signing-keys";

// The link bearer: a JWT (RFC 7519) signed by the service, naming one link (`sub`) of one
// project (`aud`, `project_id`). Its holder reads the project at GET /api/projects/{id}.

// RFC 9068's media type for JWT access tokens: a verifier can tell a link bearer from any other
// JWT signed by the same keys.
export const LINK_JWT_TYPE = "at+jwt";

export type LinkClaims = { linkId: string; projectId: string; expiresAt: Date };

/** A bearer whose signature and claims hold for the project it was presented for. */
export type VerifiedLinkBearer = { linkId: string; projectId: string; expiresAt: number };

/** The audience of a link bearer: the project resource it opens (RFC 8707 style). */
export const linkAudience = (cfg: Config, projectId: string) => `${cfg.appUrl}/api/projects/${projectId}`;

export async function signLinkBearer(cfg: Config, claims: LinkClaims): Promise<string> {
  const key = await signingKey(cfg);
  return new SignJWT({ project_id: claims.projectId })
    .setProtectedHeader({ alg: LINK_JWT_ALGORITHM, kid: key.kid, typ: LINK_JWT_TYPE })
    .setIssuer(cfg.appUrl)
    .setAudience(linkAudience(cfg, claims.projectId))
    .setSubject(claims.linkId)
    .setIssuedAt()
    .setExpirationTime(Math.floor(claims.expiresAt.getTime() / 1000))
    .setJti(randomId())
    .sign(key.privateKey);
}

async function verificationKey(cfg: Config, header: JWTHeaderParameters): Promise<KeyObject> {
  const find = (keys: { kid: string; publicKey: KeyObject }[]) => keys.find((key) => key.kid === header.kid);
  // A kid this process has not seen may be another instance's new key: look once more.
  const key = find(await publishedKeys(cfg)) ?? find(await publishedKeys(cfg, "recheck"));
  if (key === undefined) throw new ApiError("invalid_token", "The bearer token was not signed by a key of this service.");
  return key.publicKey;
}

const invalidBearer = () => new ApiError("invalid_token", "The bearer token is not valid for this project.");

/** The link and expiry (ms) of a valid bearer for `projectId`; anything else is a 401. */
export async function verifyLinkBearer(cfg: Config, jwt: string, projectId: string): Promise<VerifiedLinkBearer> {
  try {
    const { payload } = await jwtVerify(jwt, (header) => verificationKey(cfg, header), {
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
    if (error instanceof joseErrors.JWTExpired) throw new ApiError("invalid_token", "The bearer token has expired. Create the link again.");
    if (error instanceof joseErrors.JOSEError) throw invalidBearer();
    throw error;
  }
}
