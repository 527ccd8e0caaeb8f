import { z } from "zod";
import { ERROR_CODES, ERRORS, oauthError, type ErrorCode } from "../errors";
import { takesBearer, type Authentication } from "./authenticate";
import { errorBodySchema, oauthErrorBodySchema } from "./error-body";
import { publicPath, type ApiDoc, type HeaderDoc, type Operation } from "./operation";
import { OPERATIONS } from "./operations";
import { buildWebhooks } from "./openapi-webhooks";

// The OpenAPI 3.1 document of the API, built from the operations' declarations (lib/api/operations/) with zod's own JSON
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
  resourceServer: {
    type: "http",
    scheme: "basic",
    description:
      "A resource-server credential (client_secret_basic, RFC 6749 §2.3.1): its `client_id` (`ilrs_…`) and `client_secret` (`ilrss_…`), each form-encoded, as Basic's user-id and password. A project's owner makes it on /settings/resource-servers for the projects it may check.",
  },
  metricsToken: {
    type: "http",
    scheme: "bearer",
    description: "The operator's `METRICS_TOKEN`. Without one configured, metrics are served to loopback callers only.",
  },
};

/** Each operation's `security`: alternatives, an empty one meaning "no credential". */
/** The operations of the API: those with a reference entry (no page's form takes part). */
type ApiOperation = Operation & { doc: ApiDoc; auth: ApiAuth };

/** Who may call an API operation: none takes the pages' session cookie. */
type ApiAuth = Exclude<Authentication, "session">;

const isApiOperation = (operation: Operation): operation is ApiOperation => operation.doc !== undefined && operation.auth !== "session";

export const API_OPERATIONS: readonly ApiOperation[] = OPERATIONS.filter(isApiOperation);

/** The zod shape of an operation's failure envelope (Create Project Link's `success: false`). */
const envelopeShape = (envelope: Operation["errorEnvelope"]): z.ZodRawShape =>
  Object.fromEntries(Object.entries(envelope ?? {}).map(([name, value]) => [name, z.literal(value)]));

const SECURITY: Record<ApiAuth, JsonObject[]> = {
  none: [],
  initSecret: [{ initSecret: [] }, {}],
  accessToken: [{ accessToken: [] }],
  linkRequest: [{ accessToken: [] }, {}],
  linkBearer: [{ linkBearer: [] }],
  introspection: [{ resourceServer: [] }, { accessToken: [] }],
  metrics: [{ metricsToken: [] }, {}],
};

const AUTH_NOTE: Record<ApiAuth, string> = {
  none: "Auth: none.",
  initSecret: "Auth: optional bearer, the init's secret.",
  accessToken: "Auth: bearer access token.",
  linkRequest: "Auth: bearer access token (none only with LEGACY_LINK_APPROVAL on).",
  linkBearer: "Auth: bearer, the link's JWT.",
  introspection: "Auth: basic, a resource-server credential (client_secret_basic); or a bearer access token of the project's owner.",
  metrics: "Auth: bearer METRICS_TOKEN when one is set; otherwise loopback callers only.",
};

const header = (doc: HeaderDoc): JsonObject => ({ description: doc.description, schema: doc.schema, ...(doc.example === undefined ? {} : { example: doc.example }) });

/** The headers of an error answer of `status` whose codes are `codes`. */
function errorHeaders(auth: ApiAuth, status: number, codes: ErrorCode[]): JsonObject {
  const headers: JsonObject = { "Cache-Control": header({ description: "`no-store`.", schema: { type: "string" }, example: "no-store" }) };
  if (codes.some((code) => ["slow_down", "rate_limited", "unavailable", "key_not_ready", "server_busy"].includes(code))) {
    headers["Retry-After"] = header({ description: "Seconds to wait before asking again (RFC 9110 §10.2.3).", schema: { type: "integer" }, example: 5 });
  }
  if (status === 401 && codes.includes("invalid_dpop_proof")) {
    headers["WWW-Authenticate"] = header({
      description: "The Bearer challenge (RFC 6750 §3), or DPoP's (RFC 9449 §7.1) for a DPoP-bound token or its proof.",
      schema: { type: "string" },
      example: 'DPoP realm="initlink", error="invalid_dpop_proof", algs="ES256 ES384 EdDSA Ed25519 PS256 RS256"',
    });
  } else if (status === 401 && takesBearer(auth)) {
    headers["WWW-Authenticate"] = header({ description: "The Bearer challenge (RFC 6750 §3).", schema: { type: "string" }, example: 'Bearer realm="initlink", error="invalid_token"' });
  }
  return headers;
}

/** RFC 9449 §8: every answer of an operation of a DPoP client's flow carries the next nonce. */
const dpopNonceHeaders = (operation: ApiOperation): JsonObject =>
  operation.dpop ? { "DPoP-Nonce": header({ description: "The server's nonce for the next DPoP proof (RFC 9449 §8).", schema: { type: "string" } }) } : {};

/** An OAuth endpoint's error answers (RFC 6749 §5.2), by status: each code as the OAuth dialect answers it. */
function oauthErrorResponses(operation: ApiOperation): Record<string, JsonObject> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of operation.errors) byStatus.set(oauthError(code).status, [...(byStatus.get(oauthError(code).status) ?? []), code]);
  const responses: Record<string, JsonObject> = {};
  for (const [status, codes] of byStatus) {
    const headers: JsonObject = { "Cache-Control": header({ description: "`no-store` (RFC 6749 §5.1).", schema: { type: "string" }, example: "no-store" }), ...dpopNonceHeaders(operation) };
    if (status === 429 || status === 503) {
      headers["Retry-After"] = header({ description: "Seconds to wait before asking again (RFC 9110 §10.2.3).", schema: { type: "integer" }, example: 5 });
    }
    if (status === 401) {
      headers["WWW-Authenticate"] = header({
        description: "Basic's challenge (RFC 6749 §5.2) for refused client credentials; the Bearer challenge (RFC 6750 §3) for a missing or unusable access token.",
        schema: { type: "string" },
        example: 'Basic realm="initlink"',
      });
    }
    const errors = [...new Set(codes.map((code) => oauthError(code).error))];
    responses[String(status)] = {
      description: codes.map((code) => `\`${oauthError(code).error}\`${oauthError(code).error === code ? "" : ` (${code})`}: ${ERRORS[code].meaning}`).join("\n\n"),
      headers,
      content: {
        "application/json": {
          schema: jsonSchema(oauthErrorBodySchema(errors), "output"),
          examples: Object.fromEntries(codes.map((code) => [code, { summary: code, value: { error: oauthError(code).error, error_description: ERRORS[code].example } }])),
        },
      },
    };
  }
  return responses;
}

function errorResponses(operation: ApiOperation): Record<string, JsonObject> {
  if (operation.dialect === "oauth") return oauthErrorResponses(operation);
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of operation.errors) byStatus.set(ERRORS[code].status, [...(byStatus.get(ERRORS[code].status) ?? []), code]);
  const responses: Record<string, JsonObject> = {};
  for (const [status, codes] of byStatus) {
    const envelope = operation.errorEnvelope ?? {};
    responses[String(status)] = {
      description: codes.map((code) => `\`${code}\`: ${ERRORS[code].meaning}`).join("\n\n"),
      headers: { ...errorHeaders(operation.auth, status, codes), ...dpopNonceHeaders(operation) },
      content: {
        "application/json": {
          schema: jsonSchema(errorBodySchema(codes, envelopeShape(operation.errorEnvelope)), "output"),
          examples: Object.fromEntries(
            codes.map((code) => [code, { summary: code, value: { ...envelope, error: ERRORS[code].example, code, ...exampleExtras(code) } }]),
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

function successResponses(operation: ApiOperation, components: Record<string, JsonSchema>): Record<string, JsonObject> {
  const responses: Record<string, JsonObject> = {};
  for (const answer of operation.doc.answers) {
    const headers: JsonObject = { "Cache-Control": header({ description: "`no-store`: answers carry state that changes, and secrets.", schema: { type: "string" }, example: "no-store" }) };
    for (const [name, doc] of Object.entries(answer.headers ?? {})) headers[name] = header(doc);
    Object.assign(headers, dpopNonceHeaders(operation));
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

/** The path parameters' schemas: the operation's own, or a string for each one the path names (the catch-all). */
function pathParameterSchemas(operation: ApiOperation): [string, JsonSchema][] {
  if (operation.params) return Object.entries((jsonSchema(operation.params, "input").properties ?? {}) as Record<string, JsonSchema>);
  return [...publicPath(operation).matchAll(/\{(\w+)\}/g)].map((match) => [match[1], { type: "string" }]);
}

function parameters(operation: ApiOperation): JsonObject[] {
  const path = pathParameterSchemas(operation).map(([name, schema]) => ({
    name,
    in: "path",
    required: true,
    description: operation.doc.paramDescriptions?.[name],
    schema,
  }));
  const headers = Object.entries(operation.doc.requestHeaders ?? {}).map(([name, doc]) => ({ name, in: "header", required: doc.required ?? false, ...header(doc) }));
  const dpop = operation.errors.includes("invalid_dpop_proof")
    ? [{ name: "DPoP", in: "header", required: false, description: "A DPoP proof (RFC 9449 §4): binds the token to the client's key, or proves it for a bound one (docs/oauth.md).", schema: { type: "string" } }]
    : [];
  return [...path, ...headers, ...dpop];
}

function buildOperation(operation: ApiOperation, components: Record<string, JsonSchema>): JsonObject {
  const { doc, body } = operation;
  return {
    operationId: doc.operationId,
    summary: doc.summary,
    description: `${doc.description}\n\n${AUTH_NOTE[operation.auth]}`,
    tags: [doc.tag],
    security: SECURITY[operation.auth],
    parameters: parameters(operation),
    ...(typeof body === "object" && "json" in body
      ? { requestBody: { required: true, content: { "application/json": { schema: jsonSchema(body.json, "input"), example: doc.bodyExample } } } }
      : {}),
    ...(typeof body === "object" && "form" in body
      ? { requestBody: { required: true, content: { "application/x-www-form-urlencoded": { schema: jsonSchema(body.form, "input"), example: doc.bodyExample } } } }
      : {}),
    responses: { ...successResponses(operation, components), ...errorResponses(operation) },
  };
}

function buildDocument(): JsonObject {
  const components: Record<string, JsonSchema> = {
    Error: {
      ...jsonSchema(errorBodySchema(ERROR_CODES), "output"),
      description: `Every error answer: \`{error, code}\` (Create Project Link adds \`success: false\`). The codes:\n\n| code | status | meaning |\n| --- | --- | --- |\n${ERROR_CODES.map((code) => `| \`${code}\` | ${ERRORS[code].status} | ${ERRORS[code].meaning} |`).join("\n")}`,
    },
  };
  const paths: Record<string, Record<string, JsonObject>> = {};
  for (const operation of API_OPERATIONS) {
    const path = publicPath(operation);
    paths[path] = { ...paths[path], [operation.method.toLowerCase()]: buildOperation(operation, components) };
  }
  const events = buildWebhooks((schema) => jsonSchema(schema, "output"));
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: "initlink API",
      version: "1",
      description: [
        "A command-line client links itself to a person's project: it creates an init, the person approves it in the browser at `redirect_url`, the client polls the init (or waits with `Prefer: wait`, or follows its event stream) and collects an access token, then creates a project link with it.",
        "Auth, per operation: none; the init's secret (optional, to collect the access token); a bearer access token (`ilat_…`); a link's bearer JWT; or, for introspection, a resource-server credential (HTTP Basic: client_secret_basic). The browser pages and their forms (sign-in, approve, access tokens, resource-server credentials) take a session cookie and are not part of this API.",
        "Every error answers JSON `{error, code}`; a method a path does not take answers 405 `method_not_allowed` with `Allow`. Each operation lists the codes it may answer; the `Error` schema, at the end, lists them all with their meanings.",
        "Webhooks: the events initlink POSTs, signed (Standard Webhooks), to the endpoints people register on /webhooks, one entry per event type (docs/events.md).",
      ].join("\n\n"),
    },
    tags: [
      { name: "Init", description: "A client asks a person for access." },
      { name: "Project links", description: "A client with an access token links itself to the project." },
      { name: "OAuth", description: "The same flow as a standard OAuth 2.0 authorization server: the Device Authorization Grant (RFC 8628) and its metadata (RFC 8414). Errors answer `{error, error_description}` (RFC 6749 §5.2)." },
      { name: "Service", description: "Keys, health and this document." },
      { name: "Events", description: "What initlink sends to your endpoints: a signed POST per event, retried until a 2xx answer (docs/events.md)." },
    ],
    paths,
    webhooks: events.webhooks,
    components: { schemas: { ...components, ...events.components.schemas }, parameters: events.components.parameters, securitySchemes: SECURITY_SCHEMES },
  };
}

let built: JsonObject | undefined;

/** The document, built on first use and kept for the life of the process. */
export function openApiDocument(): JsonObject {
  built ??= buildDocument();
  return built;
}
