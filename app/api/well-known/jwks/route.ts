import { config } from "@/lib/config";
import { apiRoute } from "@/lib/http/handler";
import { jsonResponse } from "@/lib/http/response";
import { jwks, JWKS_MAX_AGE_SECONDS } from "@/lib/links/signing-keys";

// GET /.well-known/jwks.json (rewritten here: the App Router does not route dot-folders) — the
// public keys that verify link bearers. Verifiers may cache it briefly and refetch on an unknown kid.
export const GET = apiRoute(async () => jsonResponse(200, await jwks(config()), { "Cache-Control": `public, max-age=${JWKS_MAX_AGE_SECONDS}` }));
