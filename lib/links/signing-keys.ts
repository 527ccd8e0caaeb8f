import { createPrivateKey, createPublicKey, generateKeyPairSync, type JsonWebKey, type KeyObject } from "node:crypto";
import { errors as joseErrors, jwtVerify, SignJWT, type JWK, type JWTHeaderParameters } from "jose";
import type { Config } from "../config";
import { seal, unseal } from "../crypto/sealed";
import { db, isUniqueViolation } from "../db";
import { ApiError } from "../http/errors";
import { randomId } from "../secrets";

// The service's JWT signing keys: Ed25519 (alg EdDSA), newest signs. A key older than
// SIGNING_KEY_ROTATION_DAYS is replaced on the next signature; the one it replaced stays
// published (and accepted) until every bearer it could have signed has expired.

export const LINK_JWT_ALGORITHM = "EdDSA";
// RFC 9068's media type for JWT access tokens: a verifier can tell a link bearer from any other
// JWT signed by the same keys.
export const LINK_JWT_TYPE = "at+jwt";

// How long this process trusts its copy of the key set. Another instance's new key is seen
// within this time, and an old key stays published for this much longer than its bearers live.
const KEY_SET_CACHE_MS = 60_000;
/** How long verifiers may cache /.well-known/jwks.json. */
export const JWKS_MAX_AGE_SECONDS = 300;

type SigningKey = {
  kid: string;
  generation: number;
  createdAt: Date;
  publicJwk: JWK;
  publicKey: KeyObject;
  sealedPrivateKey: string;
};

const associatedData = (kid: string) => `signing-key:${kid}`;

let cached: { keys: SigningKey[]; loadedAt: number } | undefined;
const privateKeys = new Map<string, KeyObject>();

/** Every stored key, newest first. */
async function loadKeys(): Promise<SigningKey[]> {
  const prisma = await db();
  const rows = await prisma.signingKey.findMany({ orderBy: { generation: "desc" } });
  const keys = rows.map((row) => {
    const publicJwk = JSON.parse(row.publicJwk) as JWK & JsonWebKey;
    return {
      kid: row.kid,
      generation: row.generation,
      createdAt: row.createdAt,
      publicJwk,
      publicKey: createPublicKey({ key: publicJwk, format: "jwk" }),
      sealedPrivateKey: row.privateKeySealed,
    };
  });
  cached = { keys, loadedAt: Date.now() };
  return keys;
}

// An unknown kid makes this process look again, but at most this often: a stream of made-up
// kids must not turn into a stream of database reads.
const RECHECK_MIN_MS = 5000;
let loading: Promise<SigningKey[]> | undefined;

/** cached: the copy if younger than the cache time; recheck: at most every 5 s; reload: now. */
async function keySet(mode: "cached" | "recheck" | "reload" = "cached"): Promise<SigningKey[]> {
  // A reload must see writes made just before it, so it never joins a read already under way.
  if (mode === "reload") return loadKeys();
  const maxAge = mode === "cached" ? KEY_SET_CACHE_MS : RECHECK_MIN_MS;
  if (cached !== undefined && Date.now() - cached.loadedAt < maxAge) return cached.keys;
  loading ??= loadKeys().finally(() => {
    loading = undefined;
  });
  return loading;
}

/** Adds the key of `generation`; if another process added that generation first, theirs stands. */
async function addKey(cfg: Config, generation: number): Promise<void> {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const kid = randomId();
  const publicJwk = { ...publicKey.export({ format: "jwk" }), kid, alg: LINK_JWT_ALGORITHM, use: "sig" };
  const prisma = await db();
  try {
    await prisma.signingKey.create({
      data: {
        kid,
        generation,
        publicJwk: JSON.stringify(publicJwk),
        privateKeySealed: seal(cfg.masterKey, privateKey.export({ type: "pkcs8", format: "der" }), associatedData(kid)),
        createdAt: new Date(),
      },
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
}

/**
 * The key that signs now. A key older than the rotation period gets a successor, which starts
 * signing once it has been published for as long as verifiers may cache the JWK Set.
 */
async function activeKey(cfg: Config): Promise<SigningKey> {
  const now = Date.now();
  let keys = await keySet();
  const newest = keys[0];
  if (newest === undefined || now - newest.createdAt.getTime() >= cfg.signingKeyRotationMs) {
    // Only a process whose master key opens the current key may add its successor: one started
    // with a wrong MASTER_KEY must not leave a key that no other instance can use.
    if (newest !== undefined) privateKeyOf(cfg, newest);
    await addKey(cfg, (newest?.generation ?? 0) + 1);
    keys = await keySet("reload");
  }
  const active = keys.find((key) => now - key.createdAt.getTime() >= JWKS_MAX_AGE_SECONDS * 1000) ?? keys[0];
  if (active === undefined) throw new Error("no signing key after adding one");
  return active;
}

/**
 * Makes sure a signing key exists, so the first link does not pay for it, then checks that the
 * master key opens every stored key (a SealedValueError if not). The check comes last: an
 * instance that lost the race for the first key to one with another master key must find out.
 */
export async function prepareSigningKey(cfg: Config): Promise<void> {
  await activeKey(cfg);
  for (const key of await keySet("reload")) privateKeyOf(cfg, key);
}

/**
 * Keys that verify: the newest, and each older one until its successor has been signing for
 * longer than a bearer lives (plus the times in which the older key may still sign here or in
 * another instance's cache).
 */
function publishedKeys(cfg: Config, keys: SigningKey[]): SigningKey[] {
  const now = Date.now();
  const graceMs = JWKS_MAX_AGE_SECONDS * 1000 + KEY_SET_CACHE_MS + cfg.linkLifetimeMs;
  return keys.filter((_key, index) => {
    const successor = keys[index - 1];
    return successor === undefined || successor.createdAt.getTime() + graceMs > now;
  });
}

/** The JWK Set published at /.well-known/jwks.json. */
export async function jwks(cfg: Config): Promise<{ keys: JWK[] }> {
  await activeKey(cfg);
  return { keys: publishedKeys(cfg, await keySet()).map((key) => key.publicJwk) };
}

function privateKeyOf(cfg: Config, key: SigningKey): KeyObject {
  let privateKey = privateKeys.get(key.kid);
  if (privateKey === undefined) {
    const der = unseal(cfg.masterKey, key.sealedPrivateKey, associatedData(key.kid));
    privateKey = createPrivateKey({ key: der, format: "der", type: "pkcs8" });
    privateKeys.set(key.kid, privateKey);
  }
  return privateKey;
}

export type LinkClaims = { linkId: string; projectId: string; expiresAt: Date };

/** The audience of a link bearer: the project resource it opens (RFC 8707 style). */
export const linkAudience = (cfg: Config, projectId: string) => `${cfg.appUrl}/api/projects/${projectId}`;

export async function signLinkBearer(cfg: Config, claims: LinkClaims): Promise<string> {
  const key = await activeKey(cfg);
  return new SignJWT({ project_id: claims.projectId })
    .setProtectedHeader({ alg: LINK_JWT_ALGORITHM, kid: key.kid, typ: LINK_JWT_TYPE })
    .setIssuer(cfg.appUrl)
    .setAudience(linkAudience(cfg, claims.projectId))
    .setSubject(claims.linkId)
    .setIssuedAt()
    .setExpirationTime(Math.floor(claims.expiresAt.getTime() / 1000))
    .setJti(randomId())
    .sign(privateKeyOf(cfg, key));
}

async function verificationKey(cfg: Config, header: JWTHeaderParameters): Promise<KeyObject> {
  const find = (keys: SigningKey[]) => publishedKeys(cfg, keys).find((key) => key.kid === header.kid);
  // A kid this process has not seen may be another instance's new key: look once more.
  const key = find(await keySet()) ?? find(await keySet("recheck"));
  if (key === undefined) throw new ApiError("invalid_token", "The bearer token was not signed by a key of this service.");
  return key.publicKey;
}

const invalidBearer = () => new ApiError("invalid_token", "The bearer token is not valid for this project.");

/** The link (`sub`) and expiry (ms) of a valid bearer for `projectId`; anything else is a 401. */
export async function verifyLinkBearer(cfg: Config, jwt: string, projectId: string): Promise<{ linkId: string; expiresAt: number }> {
  try {
    const { payload } = await jwtVerify(jwt, (header) => verificationKey(cfg, header), {
      algorithms: [LINK_JWT_ALGORITHM],
      typ: LINK_JWT_TYPE,
      issuer: cfg.appUrl,
      audience: linkAudience(cfg, projectId),
      requiredClaims: ["sub", "iat", "exp", "jti"],
    });
    if (payload.project_id !== projectId || payload.sub === undefined || payload.exp === undefined) throw invalidBearer();
    return { linkId: payload.sub, expiresAt: payload.exp * 1000 };
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (error instanceof joseErrors.JWTExpired) throw new ApiError("invalid_token", "The bearer token has expired. Create the link again.");
    if (error instanceof joseErrors.JOSEError) throw invalidBearer();
    throw error;
  }
}
