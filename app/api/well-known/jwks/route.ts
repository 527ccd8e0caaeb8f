import { otherMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";
import { jwks } from "@/lib/links/jwks";
import { JWKS_MAX_AGE_SECONDS } from "@/lib/links/signing-keys";

// GET /.well-known/jwks.json (server.mjs maps it here, lib/runtime/path-aliases.mjs) — the
// public keys that verify link bearers. Verifiers may cache it briefly and refetch on an unknown kid;
// public keys are for anyone, so a verifier running in a browser may read it too (CORS).
export const GET = route(
  { auth: "none", answer: { status: 200, headers: () => ({ "Cache-Control": `public, max-age=${JWKS_MAX_AGE_SECONDS}`, "Access-Control-Allow-Origin": "*" }) } },
  () => jwks(),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
