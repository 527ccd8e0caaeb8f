import { endpointParamsSchema, messageParamsSchema, newEndpointSchema, rotateSecretSchema } from "../../events/schemas";
import { emptyFormSchema, operation } from "../operation";

// The webhook endpoints' forms (docs/events.md): /webhooks and an endpoint's page.

const formErrors = ["cross_site_request", "unauthorized", "duplicate_session_cookie", "unsupported_media_type", "payload_too_large", "invalid_request"] as const;
const endpointPage = ({ id }: { id: string }) => `/webhooks/${encodeURIComponent(id)}`;

// POST /webhooks/create — the new-endpoint form. It answers JSON, not a redirect, so that the
// signing secret, shown once, never travels in a URL or a cookie.
export const createEndpointOperation = operation({
  method: "POST",
  route: "/webhooks/create",
  auth: "session",
  sameOrigin: true,
  body: { form: newEndpointSchema },
  answer: { status: 201 },
  errors: [...formErrors, "not_found", "team_role_required", "webhook_address_refused", "webhook_endpoint_limit", "internal_error"],
});

// POST /webhooks/{id}/rotate — Rotate secret: the new secret, shown once, as JSON for the same reason.
export const rotateEndpointSecretOperation = operation({
  method: "POST",
  route: "/webhooks/[id]/rotate",
  auth: "session",
  sameOrigin: true,
  params: endpointParamsSchema,
  body: { form: rotateSecretSchema },
  answer: { status: 200 },
  errors: [...formErrors, "not_found", "internal_error"],
});

// POST /webhooks/{id}/disable and /enable — the endpoint's Disable and Enable buttons
export const disableEndpointOperation = operation({
  method: "POST",
  route: "/webhooks/[id]/disable",
  auth: "session",
  sameOrigin: true,
  params: endpointParamsSchema,
  body: { form: emptyFormSchema },
  answer: { redirect: true, back: endpointPage },
  errors: [...formErrors, "not_found"],
});

export const enableEndpointOperation = operation({
  method: "POST",
  route: "/webhooks/[id]/enable",
  auth: "session",
  sameOrigin: true,
  params: endpointParamsSchema,
  body: { form: emptyFormSchema },
  answer: { redirect: true, back: endpointPage },
  errors: [...formErrors, "not_found"],
});

// POST /webhooks/{id}/delete — the endpoint's Delete button; its queued events go with it
export const deleteEndpointOperation = operation({
  method: "POST",
  route: "/webhooks/[id]/delete",
  auth: "session",
  sameOrigin: true,
  params: endpointParamsSchema,
  body: { form: emptyFormSchema },
  answer: { redirect: true, back: endpointPage },
  errors: [...formErrors, "not_found"],
});

// POST /webhooks/{id}/test — Send a test event (webhook.test)
export const sendTestEventOperation = operation({
  method: "POST",
  route: "/webhooks/[id]/test",
  auth: "session",
  sameOrigin: true,
  params: endpointParamsSchema,
  body: { form: emptyFormSchema },
  answer: { redirect: true, back: endpointPage },
  errors: [...formErrors, "not_found"],
});

// POST /webhooks/{id}/deliveries/{messageId}/resend — Send again, from the delivery log
export const resendMessageOperation = operation({
  method: "POST",
  route: "/webhooks/[id]/deliveries/[messageId]/resend",
  auth: "session",
  sameOrigin: true,
  params: messageParamsSchema,
  body: { form: emptyFormSchema },
  answer: { redirect: true, back: endpointPage },
  errors: [...formErrors, "not_found"],
});
