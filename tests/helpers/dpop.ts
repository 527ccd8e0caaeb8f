import { createHash, randomUUID } from "node:crypto";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from "jose";
import { config } from "@/lib/config";
import { dpopNonce } from "@/lib/oauth/dpop";

// DPoP proofs (RFC 9449 §4) as a client makes them, signed with jose, and the broken ones a test
// needs: each part of a proof can be overridden.

export const APP_URL = "https://initlink.test";

export type DpopKey = { privateKey: CryptoKey; publicJwk: JWK };

export async function newDpopKey(alg = "ES256"): Promise<DpopKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { privateKey, publicJwk: await exportJWK(publicKey) };
}

export type ProofOptions = {
  method: string;
  /** The path on APP_URL, or a whole URL. */
  url: string;
  accessToken?: string;
  /** The server's current nonce unless given; null for none. */
  nonce?: string | null;
  /** Seconds since the epoch; now unless given. */
  iat?: number;
  jti?: string;
  /** Replaces header fields (typ, alg, jwk). */
  header?: Record<string, unknown>;
  /** Replaces or (undefined) removes payload claims. */
  claims?: Record<string, unknown>;
  /** Signs with this key instead (for an alg the DPoP key is not). */
  signingKey?: CryptoKey | Uint8Array;
};

export const athOf = (token: string) => createHash("sha256").update(token).digest("base64url");

export async function dpopProof(key: DpopKey, options: ProofOptions): Promise<string> {
  const { method, url, accessToken, iat = Math.floor(Date.now() / 1000), jti = randomUUID() } = options;
  const nonce = options.nonce === undefined ? dpopNonce(config()) : options.nonce;
  const payload: JWTPayload = { jti, htm: method, htu: url.startsWith("/") ? `${APP_URL}${url}` : url, iat };
  if (nonce !== null) payload.nonce = nonce;
  if (accessToken !== undefined) payload.ath = athOf(accessToken);
  for (const [name, value] of Object.entries(options.claims ?? {})) {
    if (value === undefined) delete payload[name];
    else payload[name] = value;
  }
  const header = { alg: "ES256", typ: "dpop+jwt", jwk: key.publicJwk, ...options.header };
  return new SignJWT(payload).setProtectedHeader(header as { alg: string }).sign(options.signingKey ?? key.privateKey);
}

const b64json = (value: unknown) => Buffer.from(JSON.stringify(value), "utf8").toString("base64url");

/**
 * Proofs for the hostile generators (tests/helpers/hostile/): two good ones for `method path`
 * (the first use spends each) and one broken in each way a proof can be (§4.3), `alg: none` too.
 */
export async function hostileProofs(key: DpopKey, method: string, path: string, accessToken?: string): Promise<string[]> {
  const good = { method, url: path, accessToken };
  const now = Math.floor(Date.now() / 1000);
  const mac = new Uint8Array(32).fill(1);
  return [
    await dpopProof(key, good),
    await dpopProof(key, good),
    `${b64json({ alg: "none", typ: "dpop+jwt", jwk: key.publicJwk })}.${b64json({ jti: randomUUID(), htm: method, htu: `${APP_URL}${path}`, iat: now })}.`,
    await dpopProof(key, { ...good, header: { typ: "JWT" } }),
    await dpopProof(key, { ...good, header: { alg: "HS256" }, signingKey: mac }),
    await dpopProof(key, { ...good, header: { jwk: await exportJWK(key.privateKey) } }),
    await dpopProof(key, { ...good, method: method === "GET" ? "POST" : "GET" }),
    await dpopProof(key, { ...good, url: `http://localhost:3000${path}` }),
    await dpopProof(key, { ...good, iat: now - 3600 }),
    await dpopProof(key, { ...good, iat: now + 3600 }),
    await dpopProof(key, { ...good, nonce: null }),
    await dpopProof(key, { ...good, accessToken: accessToken === undefined ? "ilat_x" : undefined }),
    await dpopProof(await newDpopKey(), good),
  ];
}
