import { newResourceServerSchema, resourceServerIdParamsSchema } from "../../resource-servers/schemas";
import { emptyFormSchema, operation } from "../operation";

// POST /settings/resource-servers/create — the new-credential form of the settings page. It
// answers JSON, not a redirect, so that the secret, shown once, never travels in a URL or a cookie.
export const createResourceServerOperation = operation({
  method: "POST",
  route: "/settings/resource-servers/create",
  auth: "session",
  sameOrigin: true,
  body: { form: newResourceServerSchema },
  answer: { status: 201 },
  errors: ["invalid_request", "duplicate_session_cookie", "unauthorized", "cross_site_request", "not_found", "payload_too_large", "unsupported_media_type", "internal_error"],
});

// POST /settings/resource-servers/{id}/revoke — the Revoke button of a credential on the settings page
export const revokeResourceServerOperation = operation({
  method: "POST",
  route: "/settings/resource-servers/[id]/revoke",
  auth: "session",
  sameOrigin: true,
  params: resourceServerIdParamsSchema,
  body: { form: emptyFormSchema },
  answer: { redirect: true, back: () => "/settings/resource-servers" },
  errors: ["cross_site_request", "unauthorized", "duplicate_session_cookie", "unsupported_media_type", "payload_too_large", "not_found"],
});
