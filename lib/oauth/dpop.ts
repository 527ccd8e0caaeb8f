import { createHash, createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { calculateJwkThumbprint, EmbeddedJWK, errors as joseErrors, jwtVerify, type JWK } from "jose";
import type { Config } from "../config";
import { db, isUniqueViolation } from "../database/db";
import { ApiError } from "../errors";
import { DPOP_ALGORITHMS } from "./schemas";

// DPoP (RFC 9449): a client proves, on each request, that it holds the private key its tokens
// are bound to. verifyDpopProof is the one check of a proof, wherever one is taken: the token
// endpoint, the device authorization, the token pickup and every request made with an access
// token. It answers the key's thumbprint (jkt, RFC 7638), which is what a binding stores.

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
const nonceKeys = new WeakMap<Buffer, Buffer>();

function nonceKey(cfg: Config): Buffer {
  let key = nonceKeys.get(cfg.masterKey);
  if (key === undefined) {
    key = Buffer.from(hkdfSync("sha256", cfg.masterKey, Buffer.alloc(0), "initlink DPoP nonce", 32));
    nonceKeys.set(cfg.masterKey, key);
  }
  return key;
}

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

async function verifiedProof(proof: string): Promise<{ payload: Record<string, unknown>; jwk: JWK }> {
  try {
    const { payload, protectedHeader } = await jwtVerify(proof, EmbeddedJWK, { typ: "dpop+jwt", algorithms: [...DPOP_ALGORITHMS] });
    // EmbeddedJWK has refused a header without a public key, so jwk is one here.
    return { payload, jwk: protectedHeader.jwk as JWK };
  } catch (error) {
    // jose's own errors, and WebCrypto's DataError for a jwk that is no key (an EC point off its curve).
    if (error instanceof joseErrors.JOSEError || (error instanceof DOMException && error.name === "DataError")) {
      throw invalidDpopProof(`The DPoP proof is not valid: ${error.message}.`);
    }
    throw error;
  }
}

/**
 * §4.3: checks the request's proof — one signed JWT of type `dpop+jwt` by an allowed algorithm,
 * its public key in `jwk`, `htm` and `htu` this request's, `iat` recent, `ath` the access token's
 * hash when one is sent, `nonce` a current one (§8) — and, when the request must use a known key,
 * that it is that key (`jkt`). Then spends its `jti` (§11.1), once in every process and instance.
 * Returns the key's thumbprint. Throws `invalid_dpop_proof`, or `use_dpop_nonce` for a proof that
 * is right but for its nonce (the answer carries a fresh one).
 */
export async function verifyDpopProof(cfg: Config, request: DpopRequest, expected: { accessToken?: string; jkt?: string } = {}): Promise<string> {
  if (request.proof === null) throw invalidDpopProof("Send a DPoP proof in the DPoP header.");
  const { payload, jwk } = await verifiedProof(request.proof);
  const { jti, htm, htu, iat, ath, nonce } = payload;
  if (typeof jti !== "string" || jti.length === 0 || jti.length > JTI_MAX) throw invalidDpopProof("The DPoP proof needs a jti.");
  if (htm !== request.method) throw invalidDpopProof(`The DPoP proof's htm must be ${request.method}.`);
  if (typeof htu !== "string" || withoutQuery(htu) !== withoutQuery(request.url)) throw invalidDpopProof(`The DPoP proof's htu must be ${withoutQuery(request.url)}.`);
  const now = Date.now();
  if (typeof iat !== "number" || !Number.isFinite(iat)) throw invalidDpopProof("The DPoP proof needs an iat.");
  if (iat * 1000 < now - DPOP_PROOF_MAX_AGE_MS) throw invalidDpopProof("The DPoP proof is too old: make a new one for each request.");
  if (iat * 1000 > now + DPOP_CLOCK_SKEW_MS) throw invalidDpopProof("The DPoP proof's iat is in the future.");
  if (expected.accessToken !== undefined && ath !== accessTokenHash(expected.accessToken)) throw invalidDpopProof("The DPoP proof's ath is not the access token's hash.");
  const jkt = await calculateJwkThumbprint(jwk, "sha256");
  if (expected.jkt !== undefined && jkt !== expected.jkt) throw invalidDpopProof("The DPoP proof is signed by another key than the one this token or code is bound to.");
  if (typeof nonce !== "string" || !isCurrentNonce(cfg, nonce, now)) throw new ApiError("use_dpop_nonce", "Send a new DPoP proof with the nonce of the DPoP-Nonce header.");
  await spendProof(jkt, jti, iat);
  return jkt;
}

/**
 * The key what a request is issued is bound to, where something already issued may be bound
 * (`boundJkt`: an init, an OAuth login). Bound: only a proof of that key is taken, and its
 * thumbprint is the answer. Not bound: the request's proof, if it carries one, binds what it is
 * issued (null: a bearer token).
 */
export async function boundKey(cfg: Config, boundJkt: string | null, dpop: DpopRequest): Promise<string | null> {
  if (boundJkt !== null) return verifyDpopProof(cfg, dpop, { jkt: boundJkt });
  return dpop.proof === null ? null : verifyDpopProof(cfg, dpop);
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
