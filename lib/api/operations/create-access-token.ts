import { newTokenSchema } from "../../access-tokens/schemas";
import { operation } from "../operation";

// POST /settings/tokens/create — the new-token form of the settings page. It answers JSON, not
// a redirect, so that the token, shown once, never travels in a URL or a cookie.
export const createAccessTokenOperation = operation({
  method: "POST",
  route: "/settings/tokens/create",
  auth: "session",
  sameOrigin: true,
  body: { form: newTokenSchema },
  answer: { status: 201 },
  errors: ["invalid_request", "duplicate_session_cookie", "unauthorized", "cross_site_request", "not_found", "payload_too_large", "unsupported_media_type", "internal_error"],
});
