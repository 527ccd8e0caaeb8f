import { randomInt } from "node:crypto";

// The user code of an init (RFC 8628 §6.1): the person compares it with the one their terminal
// shows, so that they approve the client they started and not someone else's.

// RFC 8628 §6.1: consonants only, no vowels (no words) and no look-alike characters.
export const USER_CODE_ALPHABET = "BCDFGHJKLMNPQRSTVWXZ";

/** Eight letters (20^8 ≈ 2^34.6 values) shown as XXXX-XXXX. */
export function newUserCode(): string {
  let code = "";
  for (let i = 0; i < 8; i++) code += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)];
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** Case, spaces and dashes do not matter when a person types the code. */
export const normaliseUserCode = (code: string) => code.toUpperCase().replace(/[^A-Z]/g, "");
