import { z } from "zod";
import type { ErrorCode } from "../errors";
import { healthAnswerSchema, liveAnswerSchema } from "../health";
import type { Authentication } from "../http/authenticate";
import { WAIT_CAP_SECONDS } from "../http/prefer";
import { createdInitSchema, createInitBodySchema, initIdParamsSchema, initStatusAnswerSchema } from "../init/schemas";
import { createLinkParamsSchema, jwksSchema, linkAnswerSchema, linkedProjectSchema, projectParamsSchema } from "../links/schemas";
import { JWKS_MAX_AGE_SECONDS } from "../links/signing-keys";

// Every API operation as the OpenAPI document describes it: the same zod schemas its route
// validates with and answers by, who may call it, its success answers and the error codes it
// can answer. lib/openapi/document.ts turns this table into the document; tests/api/openapi.test.ts
// checks the real answers against it and that every route file under app/api is here.

/** The document changes only with a new build: caches may keep it a while. */
export const OPENAPI_CACHE_CONTROL = "public, max-age=300";

/** Who may call an operation (lib/http/authenticate.ts): no API operation takes the pages' session cookie. */
export type OperationAuth = Exclude<Authentication, "session">;

export type HeaderDoc = { description: string; schema: { type: "string" | "integer" }; example?: string | number };

export type SuccessAnswer = {
  status: number;
  description: string;
  /** A JSON body; its examples come from the schema's metadata. */
  json?: { name: string; schema: z.ZodType };
  /** A text/event-stream body. */
  eventStream?: { description: string; example: string };
  /** A body of another text format (the metrics' Prometheus text). */
  text?: { mediaType: string; description: string; example: string };
  headers?: Record<string, HeaderDoc>;
};

export type OperationDoc = {
  method: "get" | "post";
  /** The path as clients call it, OpenAPI-templated. */
  path: string;
  /** The route file that serves it, relative to the repository. */
  routeFile: string;
  operationId: string;
  summary: string;
  description: string;
  tag: "Init" | "Project links" | "Service";
  auth: OperationAuth;
  params?: z.ZodObject;
  paramDescriptions?: Record<string, string>;
  requestHeaders?: Record<string, HeaderDoc & { required?: boolean }>;
  body?: { schema: z.ZodType; example: unknown };
  answers: SuccessAnswer[];
  errors: ErrorCode[];
  /** Fields the operation puts on every failure (Create Project Link's `success: false`). */
  errorEnvelope?: z.ZodRawShape;
};

const PREFER: HeaderDoc & { required?: boolean } = {
  description: `RFC 7240 \`wait=<seconds>\`: hold a pending init's answer until its status changes, at most ${WAIT_CAP_SECONDS} s (and never past its expiry).`,
  schema: { type: "string" },
  example: "wait=30",
};

const PREFERENCE_APPLIED: HeaderDoc = {
  description: "With `Prefer: wait`: the wait applied, capped (`wait=<seconds>`). Absent when the server already holds as many waiting requests as it may (`WAITING_PER_PROCESS`) and answered at once, as a plain poll: poll at `interval`.", schema: { type: "string" }, example: "wait=30" };

const statusEvent = (status: string, extra = "") =>
  `id: ${status}\ndata: {"id":"Q2hvb3NlQVJhbmRvbUlkMQ","status":"${status}","timestamp":1764000005000,"interval":5000,"expires_at":1764000900000${extra}}\n\n`;

export const OPERATIONS: OperationDoc[] = [
  {
    method: "post",
    path: "/api/init",
    routeFile: "app/api/init/route.ts",
    operationId: "createInit",
    summary: "Create Init",
    description:
      "A client (a CLI) names itself and gets the status resource to poll (`url`), the page to send the person to (`redirect_url`), the code to print (`user_code`) and a one-time `secret` that only it knows. With `user_code_shown: true` the page asks the person to type the code.",
    tag: "Init",
    auth: "none",
    body: {
      schema: createInitBodySchema,
      example: { sender: "@acme/cli", sender_device: "laptop", sender_os: "Linux", sender_ip: "203.0.113.7", user_code_shown: true },
    },
    answers: [
      {
        status: 201,
        description: "The init, pending. `Location` is its status resource.",
        json: { name: "CreatedInit", schema: createdInitSchema },
        headers: { Location: { description: "The init's status resource (`url`).", schema: { type: "string" }, example: "https://initlink.example/api/init/Q2hvb3NlQVJhbmRvbUlkMQ" } },
      },
    ],
    errors: ["invalid_request", "invalid_json", "payload_too_large", "unsupported_media_type", "rate_limited", "internal_error"],
  },
  {
    method: "get",
    path: "/api/init/{id}",
    routeFile: "app/api/init/[id]/route.ts",
    operationId: "getInitStatus",
    summary: "Init status (and the access token pickup)",
    description:
      "Poll at most every `interval` ms (else 429 `slow_down`). Anyone may read the status; the client that sends the init's secret as `Authorization: Bearer <secret>` also gets, once done, the project, the approver and, exactly once, an access token for the project. `Prefer: wait=<seconds>` holds a pending answer until the status changes (see `Preference-Applied`).",
    tag: "Init",
    auth: "initSecret",
    params: initIdParamsSchema,
    paramDescriptions: { id: "The init's id (Create Init's `id`)." },
    requestHeaders: { Prefer: PREFER },
    answers: [
      {
        status: 200,
        description: "The init's status: `pending`, `done`, `denied` or `expired`.",
        json: { name: "InitStatus", schema: initStatusAnswerSchema },
        headers: { "Preference-Applied": PREFERENCE_APPLIED },
      },
    ],
    errors: ["invalid_secret", "not_found", "slow_down", "rate_limited", "internal_error"],
  },
  {
    method: "get",
    path: "/api/init/{id}/events",
    routeFile: "app/api/init/[id]/events/route.ts",
    operationId: "streamInitEvents",
    summary: "Init status as Server-Sent Events",
    description:
      "One event per status, each the status answer an anonymous poller gets, with the status as its `id`: `pending` first, then the final one, after which the stream closes. A reconnect with `Last-Event-ID` never repeats an event; one after the final event gets 204, which stops an EventSource. A comment line every 15 s keeps the connection open.",
    tag: "Init",
    auth: "none",
    params: initIdParamsSchema,
    paramDescriptions: { id: "The init's id." },
    requestHeaders: {
      "Last-Event-ID": { description: "The last event's id (a status) a reconnecting EventSource saw.", schema: { type: "string" }, example: "pending" },
    },
    answers: [
      {
        status: 200,
        description: "The event stream.",
        eventStream: {
          description: "`retry: <interval>` first, then one event per status; `data` is the InitStatus answer (without the pickup's fields).",
          example: `retry: 5000\n\n${statusEvent("pending")}${statusEvent("done", ',"project_id":"UHJvamVjdElkRXhhbXBsZQ","project_url":"https://initlink.example/projects/UHJvamVjdElkRXhhbXBsZQ"')}`,
        },
      },
      { status: 204, description: "The client has already seen the final event (`Last-Event-ID` is `done`, `denied` or `expired`)." },
    ],
    errors: ["not_found", "rate_limited", "internal_error", "server_busy"],
  },
  {
    method: "post",
    path: "/api/projects/{projectId}/link/{iv}",
    routeFile: "app/api/projects/[projectId]/link/[iv]/route.ts",
    operationId: "createProjectLink",
    summary: "Create Project Link",
    description:
      "With the project's access token (`Authorization: Bearer ilat_…`), links the client named by `iv` to the project: a bearer (a JWT) for GET /api/projects/{projectId}, and the project's public key with its fingerprint for the person to compare. Idempotent per token: the same token and iv get the same link with a fresh bearer. Every failure carries `success: false`. Without `Authorization`, and only when the server runs with LEGACY_LINK_APPROVAL on, the link is approved by a person in the browser: 202 `link_approval_pending` until then.",
    tag: "Project links",
    auth: "linkRequest",
    params: createLinkParamsSchema,
    paramDescriptions: { projectId: "The project's id (the init status' `project_id`).", iv: "The client's random id for this link: 16 to 64 random bytes as hexadecimal." },
    answers: [{ status: 200, description: "The link.", json: { name: "ProjectLink", schema: linkAnswerSchema } }],
    errors: [
      "link_approval_pending",
      "invalid_request",
      "payload_too_large",
      "unauthorized",
      "invalid_token",
      "link_denied",
      "not_found",
      "link_conflict",
      "link_revoked",
      "link_approval_expired",
      "rate_limited",
      "internal_error",
      "key_not_ready",
    ],
    errorEnvelope: { success: z.literal(false) },
  },
  {
    method: "get",
    path: "/api/projects/{projectId}",
    routeFile: "app/api/projects/[projectId]/route.ts",
    operationId: "getLinkedProject",
    summary: "The project, for a link bearer",
    description:
      "What a link's bearer opens: the project, its public key and the link. Every use reads the link, so revoking the link or the access token that made it takes effect at once. The link's `bearer` may be sent as it was answered (`Authorization: Bearer Bearer <JWT>`).",
    tag: "Project links",
    auth: "linkBearer",
    params: projectParamsSchema,
    paramDescriptions: { projectId: "The project's id; it must be the bearer's." },
    answers: [{ status: 200, description: "The project.", json: { name: "LinkedProject", schema: linkedProjectSchema } }],
    errors: ["unauthorized", "invalid_token", "internal_error"],
  },
  {
    method: "get",
    path: "/.well-known/jwks.json",
    routeFile: "app/api/well-known/jwks/route.ts",
    operationId: "getJwks",
    summary: "Public keys that verify link bearers",
    description: `The JWK Set (RFC 7517 §5) of the Ed25519 keys that sign link bearers. Cache it up to ${JWKS_MAX_AGE_SECONDS} s and refetch on an unknown \`kid\`. Readable from any origin (CORS).`,
    tag: "Service",
    auth: "none",
    answers: [
      {
        status: 200,
        description: "The key set.",
        json: { name: "JsonWebKeySet", schema: jwksSchema },
        headers: {
          "Cache-Control": { description: "Verifiers may cache the set briefly.", schema: { type: "string" }, example: `public, max-age=${JWKS_MAX_AGE_SECONDS}` },
          "Access-Control-Allow-Origin": { description: "Public keys are for anyone.", schema: { type: "string" }, example: "*" },
        },
      },
    ],
    errors: ["internal_error"],
  },
  {
    method: "get",
    path: "/api/health",
    routeFile: "app/api/health/route.ts",
    operationId: "getHealth",
    summary: "Readiness",
    description: "200 when the database answers within two seconds, 503 when it does not: for load balancers and orchestrators.",
    tag: "Service",
    auth: "none",
    answers: [{ status: 200, description: "Ready.", json: { name: "Health", schema: healthAnswerSchema } }],
    errors: ["unavailable"],
  },
  {
    method: "get",
    path: "/api/live",
    routeFile: "app/api/live/route.ts",
    operationId: "getLive",
    summary: "Liveness",
    description: "Answers without touching anything: the process is up.",
    tag: "Service",
    auth: "none",
    answers: [{ status: 200, description: "Alive.", json: { name: "Live", schema: liveAnswerSchema } }],
    errors: [],
  },
  {
    method: "get",
    path: "/api/openapi.json",
    routeFile: "app/api/openapi.json/route.ts",
    operationId: "getOpenApiDocument",
    summary: "This document",
    description: "The OpenAPI 3.1 document of this API, generated from the schemas the routes validate with. Rendered at /docs.",
    tag: "Service",
    auth: "none",
    answers: [
      {
        status: 200,
        description: "The document.",
        json: { name: "OpenApiDocument", schema: z.looseObject({ openapi: z.string(), info: z.looseObject({ title: z.string() }), paths: z.record(z.string(), z.unknown()) }) },
        headers: { "Cache-Control": { description: "The same for the life of the process: cacheable.", schema: { type: "string" }, example: OPENAPI_CACHE_CONTROL } },
      },
    ],
    errors: [],
  },
  {
    method: "get",
    path: "/api/metrics",
    routeFile: "app/api/metrics/route.ts",
    operationId: "getMetrics",
    summary: "Metrics",
    description:
      "Prometheus text: requests and their latency by route, waiting clients, the project key pool, process figures; with several workers, the sum of all. With `METRICS_TOKEN` set, only a caller that sends it as a bearer is answered; without it, only a loopback caller.",
    tag: "Service",
    auth: "metrics",
    answers: [
      {
        status: 200,
        description: "The metrics, in the Prometheus text format 0.0.4.",
        text: {
          mediaType: "text/plain",
          description: "Prometheus exposition format.",
          example: '# HELP initlink_http_requests_total HTTP requests answered, by method, route pattern and status.\n# TYPE initlink_http_requests_total counter\ninitlink_http_requests_total{method="GET",route="/api/init/[id]",status="200"} 42\n',
        },
      },
    ],
    errors: ["unauthorized", "invalid_token", "not_found"],
  },
  {
    method: "get",
    path: "/api/{path}",
    routeFile: "app/api/[...path]/route.ts",
    operationId: "unknownApiPath",
    summary: "Any other /api path",
    description: "Any method on an /api path that names no operation answers a JSON 404 (the pages' 404 is HTML). A path that exists answers 405 `method_not_allowed`, with `Allow`, for a method it does not take.",
    tag: "Service",
    auth: "none",
    params: z.object({ path: z.string() }),
    paramDescriptions: { path: "Anything no operation above serves." },
    answers: [],
    errors: ["not_found"],
  },
];
