import { z } from "zod";
import { ERROR_CODES, type ErrorCode } from "../errors";
import { takesBearer } from "../http/authenticate";
import { errorStatus } from "../http/error-status";
import { errorBodySchema } from "../http/schemas";
import { ERROR_CODE_DOCS } from "./error-codes";
import { OPERATIONS, type HeaderDoc, type OperationAuth, type OperationDoc } from "./operations";

// The OpenAPI 3.1 document of the API, built from lib/openapi/operations.ts with zod's own JSON
// Schema output (draft 2020-12, the dialect of OpenAPI 3.1): request schemas as the client sends
// them (zod's input side), answers as the server sends them (the output side). Built once per
// process; GET /api/openapi.json serves it and /docs renders it.

type JsonSchema = Record<string, unknown>;
type JsonObject = Record<string, unknown>;

const OPENAPI_VERSION = "3.1.1";

function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  // OpenAPI 3.1's default dialect is JSON Schema 2020-12 (plus OpenAPI's own keywords): no
  // schema needs to name it.
  const converted: JsonSchema = { ...z.toJSONSchema(schema, { io, target: "draft-2020-12" }) };
  delete converted.$schema;
  return converted;
}

const SECURITY_SCHEMES = {
  initSecret: {
    type: "http",
    scheme: "bearer",
    description: "The init's `secret` (`ilsec_…`) from Create Init. Optional: without it the status is read as anyone reads it.",
  },
  accessToken: {
    type: "http",
    scheme: "bearer",
    description: "An access token (`ilat_…`): collected from the init status once the person approved, or made on the settings page.",
  },
  linkBearer: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description: "A link's `bearer` from Create Project Link (an EdDSA JWT; verify it with /.well-known/jwks.json).",
  },
  metricsToken: {
    type: "http",
    scheme: "bearer",
    description: "The operator's `METRICS_TOKEN`. Without one configured, metrics are served to loopback callers only.",
  },
};

/** Each operation's `security`: alternatives, an empty one meaning "no credential". */
const SECURITY: Record<OperationAuth, JsonObject[]> = {
  none: [],
  initSecret: [{ initSecret: [] }, {}],
  accessToken: [{ accessToken: [] }],
  linkRequest: [{ accessToken: [] }, {}],
  linkBearer: [{ linkBearer: [] }],
  metrics: [{ metricsToken: [] }, {}],
};

const AUTH_NOTE: Record<OperationAuth, string> = {
  none: "Auth: none.",
  initSecret: "Auth: optional bearer, the init's secret.",
  accessToken: "Auth: bearer access token.",
  linkRequest: "Auth: bearer access token (none only with LEGACY_LINK_APPROVAL on).",
  linkBearer: "Auth: bearer, the link's JWT.",
  metrics: "Auth: bearer METRICS_TOKEN when one is set; otherwise loopback callers only.",
};

const header = (doc: HeaderDoc): JsonObject => ({ description: doc.description, schema: doc.schema, ...(doc.example === undefined ? {} : { example: doc.example }) });

/** The headers of an error answer of `status` whose codes are `codes`. */
function errorHeaders(auth: OperationAuth, status: number, codes: ErrorCode[]): JsonObject {
  const headers: JsonObject = { "Cache-Control": header({ description: "`no-store`.", schema: { type: "string" }, example: "no-store" }) };
  if (codes.some((code) => ["slow_down", "rate_limited", "unavailable", "key_not_ready", "server_busy"].includes(code))) {
    headers["Retry-After"] = header({ description: "Seconds to wait before asking again (RFC 9110 §10.2.3).", schema: { type: "integer" }, example: 5 });
  }
  if (status === 401 && takesBearer(auth)) {
    headers["WWW-Authenticate"] = header({ description: "The Bearer challenge (RFC 6750 §3).", schema: { type: "string" }, example: 'Bearer realm="initlink", error="invalid_token"' });
  }
  return headers;
}

function errorResponses(operation: OperationDoc): Record<string, JsonObject> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of operation.errors) byStatus.set(errorStatus[code], [...(byStatus.get(errorStatus[code]) ?? []), code]);
  const responses: Record<string, JsonObject> = {};
  for (const [status, codes] of byStatus) {
    const envelope = operation.errorEnvelope ? { success: false } : {};
    responses[String(status)] = {
      description: codes.map((code) => `\`${code}\`: ${ERROR_CODE_DOCS[code].meaning}`).join("\n\n"),
      headers: errorHeaders(operation.auth, status, codes),
      content: {
        "application/json": {
          schema: jsonSchema(errorBodySchema(codes, operation.errorEnvelope), "output"),
          examples: Object.fromEntries(
            codes.map((code) => [code, { summary: code, value: { ...envelope, error: ERROR_CODE_DOCS[code].example, code, ...exampleExtras(code) } }]),
          ),
        },
      },
    };
  }
  return responses;
}

function exampleExtras(code: ErrorCode): JsonObject {
  if (code === "invalid_request") return { fields: [{ field: "sender", message: "is required" }] };
  if (code === "slow_down") return { interval: 5000 };
  return {};
}

function successResponses(operation: OperationDoc, components: Record<string, JsonSchema>): Record<string, JsonObject> {
  const responses: Record<string, JsonObject> = {};
  for (const answer of operation.answers) {
    const headers: JsonObject = { "Cache-Control": header({ description: "`no-store`: answers carry state that changes, and secrets.", schema: { type: "string" }, example: "no-store" }) };
    for (const [name, doc] of Object.entries(answer.headers ?? {})) headers[name] = header(doc);
    const response: JsonObject = { description: answer.description, headers };
    if (answer.json) {
      components[answer.json.name] = jsonSchema(answer.json.schema, "output");
      response.content = { "application/json": { schema: { $ref: `#/components/schemas/${answer.json.name}` } } };
    }
    if (answer.text) {
      response.content = { [answer.text.mediaType]: { schema: { type: "string", description: answer.text.description }, example: answer.text.example } };
    }
    if (answer.eventStream) {
      response.content = { "text/event-stream": { schema: { type: "string", description: answer.eventStream.description }, example: answer.eventStream.example } };
    }
    responses[String(answer.status)] = response;
  }
  return responses;
}

function parameters(operation: OperationDoc): JsonObject[] {
  const path = operation.params
    ? Object.entries((jsonSchema(operation.params, "input").properties ?? {}) as Record<string, JsonSchema>).map(([name, schema]) => ({
        name,
        in: "path",
        required: true,
        description: operation.paramDescriptions?.[name],
        schema,
      }))
    : [];
  const headers = Object.entries(operation.requestHeaders ?? {}).map(([name, doc]) => ({ name, in: "header", required: doc.required ?? false, ...header(doc) }));
  return [...path, ...headers];
}

function buildOperation(operation: OperationDoc, components: Record<string, JsonSchema>): JsonObject {
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    description: `${operation.description}\n\n${AUTH_NOTE[operation.auth]}`,
    tags: [operation.tag],
    security: SECURITY[operation.auth],
    parameters: parameters(operation),
    ...(operation.body
      ? { requestBody: { required: true, content: { "application/json": { schema: jsonSchema(operation.body.schema, "input"), example: operation.body.example } } } }
      : {}),
    responses: { ...successResponses(operation, components), ...errorResponses(operation) },
  };
}

function buildDocument(): JsonObject {
  const components: Record<string, JsonSchema> = {
    Error: { ...jsonSchema(errorBodySchema(ERROR_CODES), "output"), description: "Every error answer: `{error, code}` (Create Project Link adds `success: false`)." },
  };
  const paths: Record<string, Record<string, JsonObject>> = {};
  for (const operation of OPERATIONS) {
    paths[operation.path] = { ...paths[operation.path], [operation.method]: buildOperation(operation, components) };
  }
  const codes = ERROR_CODES.map((code) => `| \`${code}\` | ${errorStatus[code]} | ${ERROR_CODE_DOCS[code].meaning} |`).join("\n");
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: "initlink API",
      version: "1",
      description: [
        "A command-line client links itself to a person's project: it creates an init, the person approves it in the browser at `redirect_url`, the client polls the init (or waits with `Prefer: wait`, or follows its event stream) and collects an access token, then creates a project link with it.",
        "Auth, per operation: none; the init's secret (optional, to collect the access token); a bearer access token (`ilat_…`); or a link's bearer JWT. The browser pages and their forms (sign-in, approve, access tokens) take a session cookie and are not part of this API.",
        "Every error answers JSON `{error, code}`; a method a path does not take answers 405 `method_not_allowed` with `Allow`. The codes:",
        `| code | status | meaning |\n| --- | --- | --- |\n${codes}`,
      ].join("\n\n"),
    },
    tags: [
      { name: "Init", description: "A client asks a person for access." },
      { name: "Project links", description: "A client with an access token links itself to the project." },
      { name: "Service", description: "Keys, health and this document." },
    ],
    paths,
    components: { schemas: components, securitySchemes: SECURITY_SCHEMES },
  };
}

let built: JsonObject | undefined;

/** The document, built on first use and kept for the life of the process. */
export function openApiDocument(): JsonObject {
  built ??= buildDocument();
  return built;
}
