import { introspectionAnswerSchema, introspectionBodySchema } from "../../oauth/schemas";
import { operation } from "../operation";

// POST /api/oauth/introspect — RFC 7662: is this access token, refresh token or link bearer usable now?
export const introspectTokenOperation = operation({
  method: "POST",
  route: "/api/oauth/introspect",
  auth: "introspection",
  dialect: "oauth",
  body: { form: introspectionBodySchema },
  answer: { status: 200 },
  errors: ["unauthorized", "invalid_token", "client_authentication_failed", "invalid_request", "unsupported_media_type", "payload_too_large", "rate_limited", "internal_error"],
  doc: {
    operationId: "introspectToken",
    summary: "Token introspection (RFC 7662)",
    description:
      "A verifier authenticates with a resource-server credential its project's owner made on /settings/resource-servers (`Authorization: Basic`, client_secret_basic: RFC 6749 §2.3.1) or with an access token the owner made on /settings/tokens (`Authorization: Bearer ilat_…`), and sends `token`: an access token, a refresh token or a link bearer (the JWT of Create Project Link, without `Bearer `). Read from the database on every call, so a revoked token or link is `active: false` at once. A token of a project the caller's credential does not reach is `active: false` too, and nothing else is said. An active answer names the approving account in `account_id`. Limited per caller (`INTROSPECTIONS_PER_RESOURCE_SERVER_PER_MINUTE`, `INTROSPECTIONS_PER_TOKEN_PER_MINUTE`).",
    tag: "OAuth",
    bodyExample: { token: "ilat_AudKZwucI6wsqZhncOHqAlRHpNFbChlRx9Cx4zXg4jE" },
    answers: [{ status: 200, description: "The token's state (RFC 7662 §2.2).", json: { name: "IntrospectionAnswer", schema: introspectionAnswerSchema } }],
  },
});
