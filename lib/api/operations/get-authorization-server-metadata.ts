import { authorizationServerMetadataSchema } from "../../oauth/schemas";
import { operation } from "../operation";

// GET /.well-known/oauth-authorization-server (server.mjs maps it to the route,
// server/path-aliases.mjs) — RFC 8414's metadata: where an OAuth client finds the endpoints.

const METADATA_HEADERS = { "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" };

export const getAuthorizationServerMetadataOperation = operation({
  method: "GET",
  route: "/api/well-known/oauth-authorization-server",
  path: "/.well-known/oauth-authorization-server",
  auth: "none",
  answer: { status: 200, headers: () => METADATA_HEADERS },
  errors: ["internal_error"],
  database: false,
  doc: {
    operationId: "getAuthorizationServerMetadata",
    summary: "OAuth authorization server metadata",
    description: "RFC 8414: the issuer (`APP_URL`), the authorization, device authorization and token endpoints, the JWK Set and what they take. Changes only with the configuration; readable from any origin.",
    tag: "OAuth",
    answers: [
      {
        status: 200,
        description: "The metadata.",
        json: { name: "AuthorizationServerMetadata", schema: authorizationServerMetadataSchema },
        headers: {
          "Cache-Control": { description: "Clients may cache it briefly.", schema: { type: "string" }, example: METADATA_HEADERS["Cache-Control"] },
          "Access-Control-Allow-Origin": { description: "Public metadata.", schema: { type: "string" }, example: "*" },
        },
      },
    ],
  },
});
