import { createHash, generateKeyPair as generateNodeKeyPair, randomBytes, randomUUID } from "node:crypto";
import { promisify } from "node:util";
import { exportJWK, generateKeyPair, importJWK, SignJWT, type CryptoKey, type JWK, type JWTPayload } from "jose";
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

/** An RS256 key of `bits` with the public exponent `exponent` (Node makes them; jose only with 65537). */
export async function rsaDpopKey(bits: number, exponent: number): Promise<DpopKey> {
  const { privateKey, publicKey } = await promisify(generateNodeKeyPair)("rsa", { modulusLength: bits, publicExponent: exponent });
  const signing = await importJWK(privateKey.export({ format: "jwk" }) as JWK, "RS256");
  if (signing instanceof Uint8Array) throw new Error("an RSA key imports as a CryptoKey");
  return { privateKey: signing, publicJwk: publicKey.export({ format: "jwk" }) as JWK };
}

/** The public half of an RSA key of `bits` with the exponent 2^64 − 1, as a jwk: no private key is made (none could be, so quickly). */
export function hugeRsaJwk(bits: number): JWK {
  const modulus = randomBytes(bits / 8);
  modulus[0] |= 0x80;
  modulus[modulus.length - 1] |= 1;
  return { kty: "RSA", n: modulus.toString("base64url"), e: Buffer.alloc(8, 0xff).toString("base64url") };
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
    await dpopProof(key, { ...good, header: { jwk: { ...key.publicJwk, key_ops: ["decrypt"] } } }),
    await dpopProof(key, { ...good, header: { jwk: hugeRsaJwk(16_384) } }),
  ];
}
