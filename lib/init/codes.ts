import { createHash, randomBytes, randomInt } from "node:crypto";

// Identifiers and secrets of an init. Pure functions over node:crypto's CSPRNG.

/** 128 random bits, base64url: 22 characters, URL-safe, never sequential. */
export function newInitId(): string {
  return randomBytes(16).toString("base64url");
}

export const INIT_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;

// RFC 8628 §6.1: consonants only, no vowels (no words) and no look-alike characters.
export const USER_CODE_ALPHABET = "BCDFGHJKLMNPQRSTVWXZ";

/** Eight letters (20^8 ≈ 2^34.6 values) shown as XXXX-XXXX. */
export function newUserCode(): string {
  let code = "";
  for (let i = 0; i < 8; i++) code += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)];
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

export const INIT_SECRET_PREFIX = "ilsec_";

/** The one-time secret only the creating client learns: 256 random bits behind a prefix. */
export function newInitSecret(): string {
  return INIT_SECRET_PREFIX + randomBytes(32).toString("base64url");
}

/** Secrets have 256 bits of entropy, so one SHA-256 is a sufficient hash for storage. */
export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}
