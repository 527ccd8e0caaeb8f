import { DEVICE_CODE_GRANT, REFRESH_TOKEN_GRANT, tokenAnswerSchema, tokenBodySchema } from "../../oauth/schemas";
import { operation } from "../operation";

// POST /api/oauth/token — RFC 6749 §3.2's token endpoint: the device-code grant (RFC 8628 §3.4) and refresh (RFC 6749 §6)
export const tokenOperation = operation({
  method: "POST",
  route: "/api/oauth/token",
  auth: "none",
  dialect: "oauth",
  dpop: true,
  body: { form: tokenBodySchema },
  answer: { status: 200 },
  errors: [
    "invalid_request",
    "unsupported_media_type",
    "payload_too_large",
    "unsupported_grant_type",
    "invalid_grant",
    "authorization_pending",
    "slow_down",
    "access_denied",
    "expired_token",
    "invalid_dpop_proof",
    "use_dpop_nonce",
    "internal_error",
  ],
  doc: {
    operationId: "token",
    summary: "Token endpoint (RFC 6749, RFC 8628)",
    description: `With \`grant_type=${DEVICE_CODE_GRANT}\`, \`device_code\` and \`client_id\`: \`authorization_pending\` until the person decides (poll every \`interval\` seconds; each \`slow_down\` adds 5 s to it), then, once, the access token for the project the person chose and a refresh token; \`access_denied\` or \`expired_token\` end it, and a code already exchanged is \`invalid_grant\`. With \`grant_type=${REFRESH_TOKEN_GRANT}\`, \`refresh_token\` and \`client_id\`: a new access token and a new refresh token; the one presented is retired, and presenting a retired one again revokes the whole login (\`invalid_grant\`, as for one unknown, expired, revoked or another client's). A \`DPoP\` proof (RFC 9449) binds the access token to its key, and the login a device code starts; a bound login's refresh needs a proof of that key (\`invalid_dpop_proof\` otherwise).`,
    tag: "OAuth",
    bodyExample: { grant_type: DEVICE_CODE_GRANT, device_code: "ilsec_AudKZwucI6wsqZhncOHqAlRHpNFbChlRx9Cx4zXg4jE", client_id: "@acme/cli" },
    answers: [{ status: 200, description: "The access token (RFC 6749 §5.1), with the project as additional parameters.", json: { name: "TokenAnswer", schema: tokenAnswerSchema } }],
  },
});
