import { deviceAuthorizationAnswerSchema, deviceAuthorizationBodySchema } from "../../oauth/schemas";
import { operation } from "../operation";

// POST /api/oauth/device_authorization — RFC 8628 §3.1: Create Init in OAuth's words
export const deviceAuthorizationOperation = operation({
  method: "POST",
  route: "/api/oauth/device_authorization",
  auth: "none",
  dialect: "oauth",
  dpop: true,
  body: { form: deviceAuthorizationBodySchema },
  answer: { status: 200 },
  errors: ["invalid_request", "invalid_client", "unsupported_media_type", "payload_too_large", "invalid_dpop_proof", "use_dpop_nonce", "rate_limited", "internal_error"],
  doc: {
    operationId: "deviceAuthorization",
    summary: "Device Authorization (RFC 8628)",
    description:
      "A public client sends its `client_id` (what the page shows as the application) and gets a `device_code` for the token endpoint, a `user_code` to show, and where the person goes. It makes the same init as Create Init, with the same limits and expiry; the page asks the person to type the code. With `OAUTH_CLIENT_IDS` set, a `client_id` not on it is `400 invalid_client`.",
    tag: "OAuth",
    bodyExample: { client_id: "@acme/cli" },
    answers: [{ status: 200, description: "The device authorization (RFC 8628 §3.2).", json: { name: "DeviceAuthorization", schema: deviceAuthorizationAnswerSchema } }],
  },
});
