import { protectedResourceMetadataSchema } from "../../oauth/schemas";
import { operation } from "../operation";

// GET /.well-known/oauth-protected-resource (server.mjs maps it to the route,
// server/path-aliases.mjs) — RFC 9728's metadata of the project API.

const METADATA_HEADERS = { "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" };

export const getProtectedResourceMetadataOperation = operation({
  method: "GET",
  route: "/api/well-known/oauth-protected-resource",
  path: "/.well-known/oauth-protected-resource",
  auth: "none",
  answer: { status: 200, headers: () => METADATA_HEADERS },
  errors: ["internal_error"],
  database: false,
  doc: {
    operationId: "getProtectedResourceMetadata",
    summary: "OAuth protected resource metadata",
    description:
      "RFC 9728: the project API (`APP_URL`) and the authorization server whose access tokens it takes (this service). A 401 of the project API names this document in its challenge's `resource_metadata` (§5.1). Changes only with the configuration; readable from any origin.",
    tag: "OAuth",
    answers: [
      {
        status: 200,
        description: "The metadata.",
        json: { name: "ProtectedResourceMetadata", schema: protectedResourceMetadataSchema },
        headers: {
          "Cache-Control": { description: "Clients may cache it briefly.", schema: { type: "string" }, example: METADATA_HEADERS["Cache-Control"] },
          "Access-Control-Allow-Origin": { description: "Public metadata.", schema: { type: "string" }, example: "*" },
        },
      },
    ],
  },
});
