import { createHash, createHmac, createPublicKey, timingSafeEqual } from "node:crypto";
import { calculateJwkThumbprint, decodeJwt, decodeProtectedHeader, EmbeddedJWK, jwtVerify, type JWK, type JWTPayload } from "jose";
import type { Config } from "../config";
import { derivedKey } from "../crypto/derived-key";
import { db, isUniqueViolation } from "../database/db";
import { ApiError } from "../errors";
import { DPOP_ALGORITHMS } from "./schemas";

// DPoP (RFC 9449): a client proves, on each request, that it holds the private key its tokens
// are bound to. verifyDpopProof is the one check of a proof, wherever one is taken: the token
// endpoint, the device authorization, the token pickup and every request made with an access
// token. It answers the key's thumbprint (jkt, RFC 7638), which is what a binding stores. Where
// a limit or a poll clock governs the request, its two steps are taken apart around it:
// readDpopProof (no signature checked, nothing written) before, acceptDpopProof after.

/** What a request offers for a proof: its `DPoP` header, its method, and its URL built on APP_URL (never on Host). */
export type DpopRequest = { proof: string | null; method: string; url: string };

/** §11.1: a proof is accepted up to this long after its `iat`: a held status read (`Prefer: wait`, 60 s) fits. */
export const DPOP_PROOF_MAX_AGE_MS = 120_000;
/** How far ahead of our clock a client's `iat` may be. */
export const DPOP_CLOCK_SKEW_MS = 30_000;
/** §8: a nonce is made per window; the one before and the one after are still taken. */
export const DPOP_NONCE_WINDOW_MS = 5 * 60_000;

const JTI_MAX = 200;

export const invalidDpopProof = (message: string) => new ApiError("invalid_dpop_proof", message);

/**
 * §8: the server's nonce for the window `now` falls in: an HMAC of the window under a key derived
 * from MASTER_KEY, so every process and instance makes and takes the same nonces, and none is stored.
 */
export function dpopNonce(cfg: Config, now = Date.now()): string {
  const key = nonceKey(cfg);
  const window = Math.floor(now / DPOP_NONCE_WINDOW_MS);
  // Most answers carry the current nonce: made once per window.
  if (current?.key !== key || current.window !== window) current = { key, window, nonce: nonceOf(key, window) };
  return current.nonce;
}

let current: { key: Buffer; window: number; nonce: string } | undefined;
const nonceKey = (cfg: Config): Buffer => derivedKey(cfg.masterKey, "initlink DPoP nonce");

const nonceOf = (key: Buffer, window: number) => createHmac("sha256", key).update(String(window)).digest("base64url");

function isCurrentNonce(cfg: Config, nonce: string, now: number): boolean {
  const key = nonceKey(cfg);
  const window = Math.floor(now / DPOP_NONCE_WINDOW_MS);
  const presented = Buffer.from(nonce);
  return [window - 1, window, window + 1].some((each) => {
    const expected = Buffer.from(nonceOf(key, each));
    return expected.length === presented.length && timingSafeEqual(expected, presented);
  });
}

/** §4.2 `ath`: the access token's SHA-256, base64url. */
export const accessTokenHash = (token: string) => createHash("sha256").update(token).digest("base64url");

/** `htu` without its query and fragment (§4.3 check 9), as the WHATWG URL parser writes it; null if it is no URL. */
function withoutQuery(url: string): string | null {
  if (!URL.canParse(url)) return null;
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}

/**
 * RSA keys a proof may carry: 2048 bits at least (RFC 7518 §3.3, as jose requires), 4096 at most,
 * and the exponent 65537, which every key generator in use makes (WebCrypto's, OpenSSL's, Go's,
 * Java's). A verification costs as the modulus and the exponent grow: a 16,384-bit key with
 * e = 2^64 − 1 took 8.6 ms of CPU, per unauthenticated proof.
 */
const RSA_BITS = { min: 2048, max: 4096 };
const RSA_EXPONENT = 65537n;

/** Any failure to read or verify a proof is the client's proof (RFC 9449 §5, §7.1), never a 500. */
const unreadable = (error: unknown) => invalidDpopProof(`The DPoP proof is not valid: ${error instanceof Error ? error.message : "it cannot be read"}.`);

/** The proof's header key and claims, as sent (unverified), and the key's thumbprint; an RSA key out of RSA_BITS or with another exponent refused. */
async function readProof(proof: string): Promise<{ payload: JWTPayload; jkt: string }> {
  let read: { payload: JWTPayload; jwk: JWK; jkt: string };
  try {
    const { jwk } = decodeProtectedHeader(proof);
    if (jwk === undefined) throw invalidDpopProof("The DPoP proof needs its public key in the jwk header.");
    read = { payload: decodeJwt(proof), jwk, jkt: await calculateJwkThumbprint(jwk, "sha256") };
  } catch (error) {
    throw error instanceof ApiError ? error : unreadable(error);
  }
  if (read.jwk.kty === "RSA" && !isAcceptedRsaKey(read.jwk)) {
    throw invalidDpopProof(`The DPoP proof's RSA key must have a modulus of ${RSA_BITS.min} to ${RSA_BITS.max} bits and the exponent ${RSA_EXPONENT}.`);
  }
  return { payload: read.payload, jkt: read.jkt };
}

/** Node reads the key's size and exponent (parsing only: nothing is computed with it). */
function isAcceptedRsaKey(jwk: JWK): boolean {
  try {
    const details = createPublicKey({ key: { kty: "RSA", n: jwk.n, e: jwk.e }, format: "jwk" }).asymmetricKeyDetails;
    const bits = details?.modulusLength ?? 0;
    return bits >= RSA_BITS.min && bits <= RSA_BITS.max && details?.publicExponent === RSA_EXPONENT;
  } catch {
    return false;
  }
}

/**
 * A proof checked in all but its signature: cheap (no signature is checked), nothing written.
 * acceptDpopProof checks the signature and spends the jti.
 */
export type ReadDpopProof = { proof: string; jkt: string; jti: string; iat: number };

/**
 * §4.3 but for the signature (check 6): a proof whose `jwk` names an acceptable key, `htm` and
 * `htu` this request's, `iat` recent, `ath` the access token's hash when one is sent, the key
 * the known one (`jkt`) when the request must use one, and `nonce` a current one (§8). It writes
 * nothing and checks no signature, so it comes before any limit or poll clock, and the signature
 * (acceptDpopProof) after: a request refused by them costs no verification and stores no jti.
 * Throws `invalid_dpop_proof`, or `use_dpop_nonce` for a proof that lacks a current nonce (the
 * answer carries one).
 */
export async function readDpopProof(cfg: Config, request: DpopRequest, expected: { accessToken?: string; jkt?: string } = {}): Promise<ReadDpopProof> {
  if (request.proof === null) throw invalidDpopProof("Send a DPoP proof in the DPoP header.");
  const { payload, jkt } = await readProof(request.proof);
  const { jti, htm, htu, iat, ath, nonce } = payload;
  if (typeof jti !== "string" || jti.length === 0 || jti.length > JTI_MAX) throw invalidDpopProof("The DPoP proof needs a jti.");
  if (htm !== request.method) throw invalidDpopProof(`The DPoP proof's htm must be ${request.method}.`);
  if (typeof htu !== "string" || withoutQuery(htu) !== withoutQuery(request.url)) throw invalidDpopProof(`The DPoP proof's htu must be ${withoutQuery(request.url)}.`);
  const now = Date.now();
  if (typeof iat !== "number" || !Number.isFinite(iat)) throw invalidDpopProof("The DPoP proof needs an iat.");
  if (iat * 1000 < now - DPOP_PROOF_MAX_AGE_MS) throw invalidDpopProof("The DPoP proof is too old: make a new one for each request.");
  if (iat * 1000 > now + DPOP_CLOCK_SKEW_MS) throw invalidDpopProof("The DPoP proof's iat is in the future.");
  if (expected.accessToken !== undefined && ath !== accessTokenHash(expected.accessToken)) throw invalidDpopProof("The DPoP proof's ath is not the access token's hash.");
  if (expected.jkt !== undefined && jkt !== expected.jkt) throw invalidDpopProof("The DPoP proof is signed by another key than the one this token or code is bound to.");
  if (typeof nonce !== "string" || !isCurrentNonce(cfg, nonce, now)) throw new ApiError("use_dpop_nonce", "Send a new DPoP proof with the nonce of the DPoP-Nonce header.");
  return { proof: request.proof, jkt, jti, iat };
}

/**
 * §4.3 check 6, with jose: one JWS of type `dpop+jwt`, by an allowed algorithm, signed by the
 * public key in its `jwk` (the one read); then its `jti` spent (§11.1), once in every process and
 * instance. Returns the key's thumbprint.
 */
export async function acceptDpopProof(read: ReadDpopProof): Promise<string> {
  try {
    await jwtVerify(read.proof, EmbeddedJWK, { typ: "dpop+jwt", algorithms: [...DPOP_ALGORITHMS] });
  } catch (error) {
    // jose's own errors, and what WebCrypto throws for a jwk it cannot import (an EC point off its curve, key_ops without verify).
    throw unreadable(error);
  }
  await spendProof(read.jkt, read.jti, read.iat);
  return read.jkt;
}

/** §4.3 whole, where no limit comes between: readDpopProof, then acceptDpopProof. Returns the key's thumbprint. */
export async function verifyDpopProof(cfg: Config, request: DpopRequest, expected: { accessToken?: string; jkt?: string } = {}): Promise<string> {
  return acceptDpopProof(await readDpopProof(cfg, request, expected));
}

/**
 * The proof to take where what a request is issued may already be bound (`boundJkt`: an init,
 * an OAuth login): bound, only a proof of that key, so one is needed; not bound, the request's
 * proof if it carries one (null: none, a bearer token). Read only (readDpopProof).
 */
export async function readBoundProof(cfg: Config, boundJkt: string | null, dpop: DpopRequest): Promise<ReadDpopProof | null> {
  if (boundJkt !== null) return readDpopProof(cfg, dpop, { jkt: boundJkt });
  return dpop.proof === null ? null : readDpopProof(cfg, dpop);
}

/** The key what a request is issued is bound to (readBoundProof, accepted): its thumbprint, or null for a bearer token. */
export async function boundKey(cfg: Config, boundJkt: string | null, dpop: DpopRequest): Promise<string | null> {
  const read = await readBoundProof(cfg, boundJkt, dpop);
  return read === null ? null : acceptDpopProof(read);
}

/** §11.1: the unique insert is the check, so concurrent requests with one proof have one winner. */
async function spendProof(jkt: string, jti: string, iat: number): Promise<void> {
  const prisma = await db();
  const id = createHash("sha256").update(`${jkt}.${jti}`).digest("hex");
  try {
    await prisma.dpopProof.create({ data: { id, expiresAt: new Date(iat * 1000 + DPOP_PROOF_MAX_AGE_MS) } });
  } catch (error) {
    if (isUniqueViolation(error)) throw invalidDpopProof("This DPoP proof was used before: make a new one for each request.");
    throw error;
  }
}

/** The sweep: proofs past their window are refused by their iat, so their rows are no longer needed. */
export async function sweepDpopProofs(now: number): Promise<number> {
  const prisma = await db();
  const { count } = await prisma.dpopProof.deleteMany({ where: { expiresAt: { lt: new Date(now) } } });
  return count;
}
