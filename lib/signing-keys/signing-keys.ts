import { createPrivateKey, createPublicKey, generateKeyPairSync, type JsonWebKey, type KeyObject } from "node:crypto";
import type { JWK } from "jose";
import type { Config } from "../config";
import { seal, unseal } from "../crypto/sealed";
import { db, isUniqueViolation } from "../database/db";
import { randomId } from "../secrets";

// The service's JWT signing keys: Ed25519 (alg EdDSA), newest signs. The maintenance timer
// (lib/maintenance/maintenance.ts) gives a key older than SIGNING_KEY_ROTATION_DAYS a successor;
// the one it replaced stays published (and accepted) until every bearer it actually signed has
// expired: each signing records its bearer's expiry on the key (`signedUntil`), so the rule holds
// whatever LINK_LIFETIME_DAYS says later. Requests only read keys: a GET never writes one.

export const LINK_JWT_ALGORITHM = "EdDSA";

// How long this process trusts its copy of the key set. Another instance's new key is seen
// within this time, and an old key stays published for this much longer than its bearers live.
const KEY_SET_CACHE_MS = 60_000;
/** How long verifiers may cache /.well-known/jwks.json. */
export const JWKS_MAX_AGE_SECONDS = 300;

type SigningKey = {
  kid: string;
  generation: number;
  createdAt: Date;
  signedUntil: Date | null;
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
      signedUntil: row.signedUntil,
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

function privateKeyOf(cfg: Config, key: SigningKey): KeyObject {
  let privateKey = privateKeys.get(key.kid);
  if (privateKey === undefined) {
    const der = unseal(cfg.masterKey, key.sealedPrivateKey, associatedData(key.kid));
    privateKey = createPrivateKey({ key: der, format: "der", type: "pkcs8" });
    privateKeys.set(key.kid, privateKey);
  }
  return privateKey;
}

/** The stored keys; the first one is made if there is none yet (a fresh database). */
async function existingKeys(cfg: Config): Promise<SigningKey[]> {
  const keys = await keySet();
  if (keys.length > 0) return keys;
  await addKey(cfg, 1);
  return keySet("reload");
}

/**
 * The key that signs now: the newest that has been published for as long as verifiers may
 * cache the JWK Set, so that no verifier meets a kid it cannot know yet.
 */
export async function signingKey(cfg: Config): Promise<{ kid: string; privateKey: KeyObject }> {
  const now = Date.now();
  const keys = await existingKeys(cfg);
  const active = keys.find((key) => now - key.createdAt.getTime() >= JWKS_MAX_AGE_SECONDS * 1000) ?? keys[0];
  if (active === undefined) throw new Error("no signing key after adding one");
  return { kid: active.kid, privateKey: privateKeyOf(cfg, active) };
}

/**
 * Gives the newest key a successor once it is older than the rotation period. Only a process
 * whose master key opens the current key may: one started with a wrong MASTER_KEY must not
 * leave a key that no other instance can use.
 */
export async function rotateSigningKeys(cfg: Config): Promise<void> {
  const newest = (await existingKeys(cfg))[0];
  if (newest === undefined || Date.now() - newest.createdAt.getTime() < cfg.signingKeyRotationMs) return;
  privateKeyOf(cfg, newest);
  await addKey(cfg, newest.generation + 1);
  await keySet("reload");
}

/**
 * Makes sure a signing key exists, so the first link does not pay for it, then checks that the
 * master key opens every stored key (a SealedValueError if not). The check comes last: an
 * instance that lost the race for the first key to one with another master key must find out.
 */
export async function prepareSigningKey(cfg: Config): Promise<void> {
  await existingKeys(cfg);
  for (const key of await keySet("reload")) privateKeyOf(cfg, key);
}

// A recorded expiry is rounded up to the hour: a key is published up to an hour longer than it
// must be, and a process writes it about once an hour rather than once per bearer.
const SIGNED_UNTIL_STEP_MS = 3_600_000;
/** kid → the signedUntil this process knows is stored (the stored value only ever grows). */
const recordedUntil = new Map<string, number>();

/**
 * Records that `kid` signed a bearer expiring at `expiresAt`, before the bearer is handed out:
 * one update that only ever raises the stored value (GREATEST), so concurrent signers in any
 * process cannot lower it.
 */
export async function recordSignature(kid: string, expiresAt: Date): Promise<void> {
  const until = Math.ceil(expiresAt.getTime() / SIGNED_UNTIL_STEP_MS) * SIGNED_UNTIL_STEP_MS;
  if ((recordedUntil.get(kid) ?? 0) >= until) return;
  const prisma = await db();
  const signedUntil = new Date(until);
  await prisma.signingKey.updateMany({ where: { kid, OR: [{ signedUntil: null }, { signedUntil: { lt: signedUntil } }] }, data: { signedUntil } });
  recordedUntil.set(kid, until);
}

// After its successor appears, a key may still sign for as long as verifiers may cache the JWK
// Set plus an instance's cached key set; another instance's copy of its signedUntil may lag by
// one cache time more.
const SIGNING_WINDOW_MS = JWKS_MAX_AGE_SECONDS * 1000 + 2 * KEY_SET_CACHE_MS;

/**
 * Keys that verify: the newest; each older one while it may still sign, and then until the
 * latest expiry of a bearer it signed.
 */
export async function publishedKeys(mode: "cached" | "recheck" = "cached"): Promise<{ kid: string; publicJwk: JWK; publicKey: KeyObject }[]> {
  const keys = await keySet(mode);
  const now = Date.now();
  return keys.filter((key, index) => {
    const successor = keys[index - 1];
    if (successor === undefined || successor.createdAt.getTime() + SIGNING_WINDOW_MS > now) return true;
    return key.signedUntil !== null && key.signedUntil.getTime() > now;
  });
}
