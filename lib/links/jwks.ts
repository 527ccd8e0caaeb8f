import type { JWK } from "jose";
import type { Config } from "../config";
import { publishedKeys } from "./signing-keys";

/** The JWK Set published at /.well-known/jwks.json (RFC 7517 §5): the keys that verify link bearers. */
export async function jwks(cfg: Config): Promise<{ keys: JWK[] }> {
  return { keys: (await publishedKeys(cfg)).map((key) => key.publicJwk) };
}
