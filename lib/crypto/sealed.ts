import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

// Private keys at rest: AES-256-GCM under the master key, with a fresh 96-bit nonce per value.
// The associated data names the row a value belongs to, so a sealed value copied into another
// row (another project's key, say) fails to open instead of being used.

const VERSION = "v1";
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export class SealedValueError extends Error {}

/** `v1.<nonce>.<ciphertext>.<tag>`, each part base64url. */
export function seal(masterKey: Buffer, plaintext: Buffer, associatedData: string): string {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv("aes-256-gcm", masterKey, nonce);
  cipher.setAAD(Buffer.from(associatedData));
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return [VERSION, nonce, ciphertext, cipher.getAuthTag()].map((part) => (typeof part === "string" ? part : part.toString("base64url"))).join(".");
}

/** The plaintext of a sealed value; throws SealedValueError if the key or the row is wrong. */
export function unseal(masterKey: Buffer, sealed: string, associatedData: string): Buffer {
  const [version, nonce, ciphertext, tag] = sealed.split(".");
  if (version !== VERSION || nonce === undefined || ciphertext === undefined || tag === undefined) {
    throw new SealedValueError("not a sealed value of a known version");
  }
  try {
    const decipher = createDecipheriv("aes-256-gcm", masterKey, Buffer.from(nonce, "base64url"), { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(associatedData));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]);
  } catch {
    // A wrong key, another row's value, or a changed or truncated nonce, tag or ciphertext.
    throw new SealedValueError("the value does not open under this master key (wrong MASTER_KEY, or data changed)");
  }
}
