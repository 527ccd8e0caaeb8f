import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

// Random identifiers and bearer secrets, and how they are stored. Pure functions over
// node:crypto's CSPRNG.

/** 128 random bits, base64url: 22 characters, URL-safe, never sequential. */
export function randomId(): string {
  return randomBytes(16).toString("base64url");
}

export const RANDOM_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/** 256 random bits, base64url, behind a prefix that names the kind of secret (or none). */
export function randomSecret(prefix = ""): string {
  return prefix + randomBytes(32).toString("base64url");
}

/** Secrets have 256 bits of entropy, so one SHA-256 is a sufficient hash for storage. */
export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

/** Whether a presented secret is the one whose hash is stored, in constant time. */
export function secretMatchesHash(presented: string, storedHash: string): boolean {
  const actual = Buffer.from(hashSecret(presented), "hex");
  const expected = Buffer.from(storedHash, "hex");
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
