import { passkeyIdParamsSchema } from "../../passkeys/schemas";
import { emptyFormSchema, operation } from "../operation";

// POST /settings/passkeys/{id}/remove — the Remove button of a passkey on the settings page
export const removePasskeyOperation = operation({
  method: "POST",
  route: "/settings/passkeys/[id]/remove",
  auth: "session",
  sameOrigin: true,
  params: passkeyIdParamsSchema,
  body: { form: emptyFormSchema },
  answer: { redirect: true, back: () => "/settings/passkeys" },
  errors: ["cross_site_request", "unauthorized", "duplicate_session_cookie", "unsupported_media_type", "payload_too_large", "not_found", "last_passkey", "last_sign_in_method"],
});
