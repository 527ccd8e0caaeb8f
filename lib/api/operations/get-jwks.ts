import { jwksSchema } from "../../links/schemas";
import { JWKS_MAX_AGE_SECONDS } from "../../signing-keys/signing-keys";
import { operation } from "../operation";

// GET /.well-known/jwks.json (server.mjs maps it to the route, server/path-aliases.mjs) — the
// public keys that verify link bearers. Verifiers may cache it briefly and refetch on an unknown kid;
// public keys are for anyone, so a verifier running in a browser may read it too (CORS).

const JWKS_HEADERS = { "Cache-Control": `public, max-age=${JWKS_MAX_AGE_SECONDS}`, "Access-Control-Allow-Origin": "*" };

export const getJwksOperation = operation({
  method: "GET",
  route: "/api/well-known/jwks",
  path: "/.well-known/jwks.json",
  auth: "none",
  answer: { status: 200, headers: () => JWKS_HEADERS },
  errors: ["internal_error"],
  doc: {
    operationId: "getJwks",
    summary: "Public keys that verify link bearers",
    description: `The JWK Set (RFC 7517 §5) of the Ed25519 keys that sign link bearers. Cache it up to ${JWKS_MAX_AGE_SECONDS} s and refetch on an unknown \`kid\`. Readable from any origin (CORS).`,
    tag: "Service",
    answers: [
      {
        status: 200,
        description: "The key set.",
        json: { name: "JsonWebKeySet", schema: jwksSchema },
        headers: {
          "Cache-Control": { description: "Verifiers may cache the set briefly.", schema: { type: "string" }, example: JWKS_HEADERS["Cache-Control"] },
          "Access-Control-Allow-Origin": { description: "Public keys are for anyone.", schema: { type: "string" }, example: "*" },
        },
      },
    ],
  },
});
