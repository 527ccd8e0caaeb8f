import { createHash, createPublicKey, generateKeyPairSync, randomUUID, type KeyObject } from "node:crypto";
import { SignJWT, type JWK } from "jose";

// DPoP (RFC 9449): the client proves on each request that it holds the private key its access
// token is bound to, so a token that leaks is useless without the key. Proofs are signed by jose.

/** A new DPoP key: an ECDSA P-256 private key (ES256). Keep it as you keep the token: only its owner may read it. */
export function newDpopKey(): KeyObject {
  return generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey;
}

/** The JWS algorithm of a key the server takes (its metadata's `dpop_signing_alg_values_supported`). */
function algorithmOf(key: KeyObject): string {
  if (key.type !== "private") throw new TypeError("A DPoP key must be a private key.");
  if (key.asymmetricKeyType === "ed25519") return "Ed25519";
  if (key.asymmetricKeyType === "ec" && key.asymmetricKeyDetails?.namedCurve === "prime256v1") return "ES256";
  if (key.asymmetricKeyType === "ec" && key.asymmetricKeyDetails?.namedCurve === "secp384r1") return "ES384";
  throw new TypeError("A DPoP key must be ECDSA P-256 or P-384, or Ed25519.");
}

/** Makes a client's proofs with one key, and keeps the server's latest nonce (§8) for the next one. */
export class DpopProver {
  readonly #key: KeyObject;
  readonly #alg: string;
  readonly #jwk: JWK;
  #nonce: string | undefined;

  constructor(privateKey: KeyObject) {
    this.#alg = algorithmOf(privateKey);
    this.#key = privateKey;
    // Only the public members: the proof carries the public key.
    const { kty, crv, x, y } = createPublicKey(privateKey).export({ format: "jwk" });
    this.#jwk = { kty, crv, x, ...(y === undefined ? {} : { y }) };
  }

  /** §4.2: a proof for one request; `ath` binds it to the access token it comes with. */
  async proof(method: string, url: URL, accessToken?: string): Promise<string> {
    const payload = {
      jti: randomUUID(),
      htm: method,
      htu: `${url.origin}${url.pathname}`,
      ...(this.#nonce === undefined ? {} : { nonce: this.#nonce }),
      ...(accessToken === undefined ? {} : { ath: createHash("sha256").update(accessToken).digest("base64url") }),
    };
    return new SignJWT(payload).setProtectedHeader({ alg: this.#alg, typ: "dpop+jwt", jwk: this.#jwk }).setIssuedAt().sign(this.#key);
  }

  /** Keeps the nonce an answer gives (`DPoP-Nonce`); true if it is a new one. */
  remember(headers: Headers): boolean {
    const nonce = headers.get("dpop-nonce");
    if (nonce === null || nonce === this.#nonce) return false;
    this.#nonce = nonce;
    return true;
  }
}
