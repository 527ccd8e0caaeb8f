import { revocationAnswerSchema, revocationBodySchema } from "../../oauth/schemas";
import { operation } from "../operation";

// POST /api/oauth/revoke — RFC 7009: a public client ends its refresh token (its whole login) or an access token
export const revokeTokenOperation = operation({
  method: "POST",
  route: "/api/oauth/revoke",
  auth: "none",
  dialect: "oauth",
  body: { form: revocationBodySchema },
  answer: { status: 200 },
  errors: ["invalid_request", "unsupported_media_type", "payload_too_large", "invalid_grant", "unsupported_token_type", "internal_error"],
  doc: {
    operationId: "revokeToken",
    summary: "Token revocation (RFC 7009)",
    description:
      "With `token` and `client_id`: a login's current refresh token ends the whole login (the refresh tokens and every access token issued with them); an access token ends alone. A token that is unknown, expired, already revoked or retired by a refresh is answered 200 all the same, ending nothing; a token issued to another `client_id` (or made on the settings page) is `invalid_grant`. A link bearer is `unsupported_token_type`: revoke its link on the project's page. `token_type_hint` is accepted and not needed.",
    tag: "OAuth",
    bodyExample: { token: "ilrt_x3LkQ0pV9sTqzN2bWm8cYdE1fGhJkL4nOpRsTuVwXyZ", token_type_hint: "refresh_token", client_id: "@acme/cli" },
    answers: [{ status: 200, description: "Revoked, or nothing to revoke (RFC 7009 §2.2).", json: { name: "RevocationAnswer", schema: revocationAnswerSchema } }],
  },
});
