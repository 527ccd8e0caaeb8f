import { introspectionAnswerSchema, introspectionBodySchema } from "../../oauth/schemas";
import { operation } from "../operation";

// POST /api/oauth/introspect — RFC 7662: is this access token, refresh token or link bearer usable now?
export const introspectTokenOperation = operation({
  method: "POST",
  route: "/api/oauth/introspect",
  auth: "accessToken",
  dialect: "oauth",
  body: { form: introspectionBodySchema },
  answer: { status: 200 },
  errors: ["unauthorized", "invalid_token", "invalid_request", "unsupported_media_type", "payload_too_large", "rate_limited", "internal_error"],
  doc: {
    operationId: "introspectToken",
    summary: "Token introspection (RFC 7662)",
    description:
      "A verifier authenticates with an access token its project's owner made on /settings/tokens (`Authorization: Bearer ilat_…`) and sends `token`: an access token, a refresh token or a link bearer (the JWT of Create Project Link, without `Bearer `). Read from the database on every call, so a revoked token or link is `active: false` at once. A token of a project the caller's access token does not reach is `active: false` too, and nothing else is said. Limited per caller (`INTROSPECTIONS_PER_TOKEN_PER_MINUTE`).",
    tag: "OAuth",
    bodyExample: { token: "ilat_AudKZwucI6wsqZhncOHqAlRHpNFbChlRx9Cx4zXg4jE" },
    answers: [{ status: 200, description: "The token's state (RFC 7662 §2.2).", json: { name: "IntrospectionAnswer", schema: introspectionAnswerSchema } }],
  },
});
