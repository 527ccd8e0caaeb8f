import { z } from "zod";
import type { Config } from "../config";
import type { ApiError, ErrorCode } from "../errors";
import type { Authentication } from "./authenticate";

// What an operation is, declared once in lib/api/operations/<operation>.ts: its method and
// route, who may call it, what it reads, how it answers, the error codes it may answer and, for
// the API, its reference. route() (lib/api/route.ts) runs it; lib/api/openapi-document.ts
// documents the API's operations; the tests' in-process router and hostile tables read the
// same list (lib/api/operations/index.ts).

export type Method = "GET" | "POST";

/**
 * How the operation answers errors: the service's own `{error, code}`, or OAuth's
 * `{error, error_description}` (RFC 6749 §5.2) for the OAuth endpoints, from the one catalogue
 * (lib/errors.ts). An OAuth form body is read by OAuth's rules (lib/api/body.ts).
 */
export type Dialect = "initlink" | "oauth";

/** How the body is read: JSON or an HTML form, each through its schema; or read within the limit and ignored. */
export type BodyOption<B> = { json: z.ZodType<B> } | { form: z.ZodType<B> } | "ignored";

/** A JSON answer of `status`; `headers` adds headers made from the operation's result. */
export type JsonAnswer<R> = { status: number; headers?(result: R): Record<string, string> };

/** A `text/event-stream` answer: the operation's stream, or null for 204 No Content (an EventSource stops reconnecting). */
export type StreamAnswer = { stream: true };

/** A 200 answer in a format other than JSON (the metrics' text): the operation gives its type and text. */
export type TextAnswer = { text: true };

/**
 * A form's answer: the operation's redirect, or on failure `back` (the form's page, which the
 * error may decide) with ?error=<code> and, if `keep` is given, the cookie it makes of the fields
 * sent (what the page shows again); `clear`: a cookie every failure clears (a spent flow's).
 */
export type RedirectAnswer<P> = {
  redirect: true;
  back(params: P, query: URLSearchParams, error: ApiError): string;
  keep?(cfg: Config, fields: Record<string, string>, error: ApiError): string;
  clear?(cfg: Config): string;
};

export type Answer<P, R> = JsonAnswer<R> | StreamAnswer | TextAnswer | RedirectAnswer<P>;

export type HeaderDoc = { description: string; schema: { type: "string" | "integer" }; example?: string | number };

export type SuccessAnswerDoc = {
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

/** An API operation's entry in the reference (pages' forms have none). */
export type ApiDoc = {
  operationId: string;
  summary: string;
  description: string;
  tag: "Init" | "Project links" | "OAuth" | "Service";
  paramDescriptions?: Record<string, string>;
  requestHeaders?: Record<string, HeaderDoc & { required?: boolean }>;
  bodyExample?: unknown;
  answers: SuccessAnswerDoc[];
};

// Methods, not function properties, in the answers above: a list of operations holds each with its own params and result.
export type Operation<A extends Authentication = Authentication, P = unknown, B = unknown, Ans extends Answer<P, never> = Answer<P, never>, M extends Method = Method> = {
  method: M;
  /** The route's path in app/ (`app{route}/route.ts`), with Next's [segments]. */
  route: `/${string}`;
  /** Where clients call it, OpenAPI-templated, when not the route's own path (server.mjs's aliases). */
  path?: `/${string}`;
  auth: A;
  /** The service's own error answers unless "oauth". */
  dialect?: Dialect;
  /** A step of a DPoP client's flow (RFC 9449): every answer carries `DPoP-Nonce`, the nonce for its next proof (§8). */
  dpop?: true;
  /** State-changing forms and fetches of this site's own pages: refuse cross-site requests (CSRF). */
  sameOrigin?: true;
  params?: z.ZodType<P>;
  body?: BodyOption<B>;
  /**
   * RFC 7240 `Prefer: wait` is honoured (capped); the answer says the wait it applied in
   * `Preference-Applied`. A process that holds as many waits as it may answers at once, without it.
   */
  wait?: true;
  answer: Ans;
  /** Fields the operation puts on every failure (Create Project Link's `success: false`). */
  errorEnvelope?: Record<string, string | number | boolean>;
  /** Every code it may answer, 5xx included (`unavailable` is added unless `database` is false). */
  errors: readonly ErrorCode[];
  /** False for an operation that never reads the database, so never answers `unavailable` (lib/database/busy.ts). */
  database?: false;
  doc?: ApiDoc;
};

/** Declares an operation, keeping its types for route(); one that reads the database may answer `unavailable`. */
export const operation = <A extends Authentication, M extends Method, P = Record<string, never>, B = undefined, Ans extends Answer<P, never> = Answer<P, never>>(
  declared: Operation<A, P, B, Ans, M>,
): Operation<A, P, B, Ans, M> =>
  declared.database === false || declared.errors.includes("unavailable") ? declared : { ...declared, errors: [...declared.errors, "unavailable"] };

/** The path clients call, OpenAPI-templated: `/api/init/[id]` → `/api/init/{id}`. */
export const publicPath = (op: Pick<Operation, "route" | "path">): string =>
  op.path ?? op.route.replace(/\[(?:\.\.\.)?(\w+)\]/g, "{$1}");

/** A form whose fields the operation does not need (a Revoke or Deny button): still a form of this site, read within its limit. */
export const emptyFormSchema = z.object({});
