import type { JWK } from "jose";
import { publishedKeys } from "./signing-keys";

/** The JWK Set published at /.well-known/jwks.json (RFC 7517 §5): the keys that verify link bearers. */
export async function jwks(): Promise<{ keys: JWK[] }> {
  return { keys: (await publishedKeys()).map((key) => key.publicJwk) };
}
