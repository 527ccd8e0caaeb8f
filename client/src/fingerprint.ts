import { createHash, createPublicKey, randomBytes } from "node:crypto";

/**
 * The fingerprint the project page shows for a public key: `SHA256:` and the unpadded base64
 * SHA-256 of the key's SubjectPublicKeyInfo DER. Computed here from the key the client was given,
 * so that comparing it with the page's proves the client holds the project's key.
 */
export function publicKeyFingerprint(pem: string): string {
  const der = createPublicKey(pem).export({ type: "spki", format: "der" });
  return `SHA256:${createHash("sha256").update(der).digest("base64").replace(/=+$/, "")}`;
}

/** A new link's `iv`: 128 random bits as 32 hexadecimal characters, as the README advises. */
export const randomIv = (): string => randomBytes(16).toString("hex");
