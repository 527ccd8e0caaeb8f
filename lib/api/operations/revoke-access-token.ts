import { tokenIdParamsSchema } from "../../access-tokens/schemas";
import { emptyFormSchema, operation } from "../operation";

// POST /settings/tokens/{id}/revoke — the Revoke button of a token on the settings page
export const revokeAccessTokenOperation = operation({
  method: "POST",
  route: "/settings/tokens/[id]/revoke",
  auth: "session",
  sameOrigin: true,
  params: tokenIdParamsSchema,
  body: { form: emptyFormSchema },
  answer: { redirect: true, back: () => "/settings/tokens" },
  errors: ["cross_site_request", "unauthorized", "duplicate_session_cookie", "unsupported_media_type", "payload_too_large", "not_found"],
});
