import { randomInt } from "node:crypto";
import { randomSecret } from "../secrets";

// The user code and the one-time secret of an init. Its id is a plain randomId().

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

export const INIT_SECRET_PREFIX = "ilsec_";

/** The one-time secret only the creating client learns. */
export const newInitSecret = () => randomSecret(INIT_SECRET_PREFIX);
