import { userCodeFormSchema } from "../../init/schemas";
import { operation } from "../operation";

// POST /device/enter — the form of /device, OAuth's verification page (RFC 8628 §3.3): the code
// typed leads to its request's approval page.
export const enterUserCodeOperation = operation({
  method: "POST",
  route: "/device/enter",
  auth: "session",
  sameOrigin: true,
  body: { form: userCodeFormSchema },
  answer: { redirect: true, back: () => "/device" },
  errors: ["cross_site_request", "unauthorized", "duplicate_session_cookie", "unsupported_media_type", "payload_too_large", "invalid_request", "unknown_user_code", "rate_limited"],
});
