import { config } from "@/lib/config";
import { apiRoute } from "@/lib/http/handler";
import { jsonResponse } from "@/lib/http/response";
import { assertSameOrigin } from "@/lib/http/same-origin";
import { createTokenFromForm } from "@/lib/tokens/forms";

// POST /settings/tokens/create — the new-token form of the settings page. It answers JSON, not
// a redirect, so that the token, shown once, never travels in a URL or a cookie.
export const POST = apiRoute(async (request) => {
  const cfg = config();
  assertSameOrigin(cfg, request.headers);
  return jsonResponse(201, await createTokenFromForm(cfg, request));
});
