import { z } from "zod";
import { sessionTokenFromHeaders } from "../auth/session-cookie";
import { config, type Config } from "../config";
import { ApiError } from "../errors";
import type { RequestOrigin } from "../request-origin";
import { logger } from "../runtime/logger.mjs";
import { loggedPath, REQUEST_ID_HEADER } from "../runtime/request-context.mjs";
import { enterWaitingRoom } from "../waiting-room";
import { authenticate, takesBearer, type Authentication, type Credentials, type RawParams } from "./authenticate";
import { discardBody, readFormBody, readJsonBody } from "./body";
import { requestOrigin } from "./client-address";
import { preferredWait } from "./prefer";
import { errorResponse, eventStreamResponse, jsonResponse, redirectResponse, textResponse } from "./response";
import { assertSameOrigin } from "./same-origin";
import { invalidRequest, parseInput } from "./validate";

// The one wrapper of every route handler. A route names its operation's options (who may call
// it, whether it is a form of this site, its params and body schemas, the answer's envelope)
// and calls one function in lib/ with what the wrapper parsed; everything HTTP happens here, in
// this order: same-origin check, authentication, params, body, the operation, the answer. A
// thrown ApiError becomes its status and JSON body (or, for a form, a 303 back to the form's
// page with ?error=<code>); anything else is our fault: logged with the request id, answered
// with a generic 500 that carries no detail. An operation that streams (Server-Sent Events)
// returns its stream, or null for 204 No Content; every check it makes comes before the stream.

export type RouteHandler = (request: Request, context: { params: Promise<RawParams> }) => Promise<Response>;

/** How the body is read: JSON or an HTML form, each through its schema; or read within the limit and ignored. */
type BodyOption<B> = { json: z.ZodType<B> } | { form: z.ZodType<B> } | "ignored";

/** A form whose fields the operation does not need (a Revoke or Deny button): still a form of this site, read within its limit. */
export const emptyFormSchema = z.object({});

/** A 303 See Other to a path of this site, with a cookie to set. */
type Redirect = { to: string; setCookie?: string };

type JsonAnswer<R> = {
  status: number;
  headers?: (result: R) => Record<string, string>;
  /** Fields the operation's contract puts on every failure too (Create Project Link's `success: false`). */
  errorEnvelope?: Record<string, unknown>;
};

/** A `text/event-stream` answer: the operation's stream, or null for 204 No Content (an EventSource stops reconnecting). */
type StreamAnswer = { stream: true };

/** A 200 answer in a format other than JSON (the metrics' text): the operation gives its type and text. */
type TextAnswer = { text: true };
type Text = { contentType: string; body: string };

/**
 * A form's answer: the operation's Redirect, or on failure `back` (the form's page) with
 * ?error=<code> and, if `keep` is given, the cookie it makes of the fields sent (what the page
 * shows again).
 */
type RedirectAnswer<P> = {
  redirect: true;
  back: (params: P, query: URLSearchParams) => string;
  keep?: (cfg: Config, fields: Record<string, string>, error: ApiError) => string;
};

type Options<A extends Authentication, P, B> = {
  auth: A;
  /** State-changing forms and fetches of this site's own pages: refuse cross-site requests (CSRF). */
  sameOrigin?: boolean;
  params?: z.ZodType<P>;
  body?: BodyOption<B>;
  /**
   * RFC 7240 `Prefer: wait` is honoured (capped); the answer says the wait it applied in
   * `Preference-Applied`. A process that holds as many waits as it may answers at once, without it.
   */
  wait?: true;
};

type OperationInput<A extends Authentication, P, B> = {
  cfg: Config;
  auth: Credentials[A];
  params: P;
  body: B;
  origin: RequestOrigin;
  query: URLSearchParams;
  /** The session token the request carries, if any, signed in or not (sign-out ends it). */
  sessionToken: string | undefined;
  /** The seconds the client lets the operation wait (`Prefer: wait`, capped); 0 unless the route honours it. */
  wait: number;
  /** Aborted when the client goes away: a waiting or streaming operation lets go at once. */
  signal: AbortSignal;
  headers: Headers;
};

type Operation<A extends Authentication, P, B, R> = (input: OperationInput<A, P, B>) => Promise<R>;

/** Reads the body; a form's raw fields go to `received` before they are parsed. */
async function readBody<B>(request: Request, option: BodyOption<B> | undefined, received: (fields: Record<string, string>) => void): Promise<B | undefined> {
  if (option === undefined) return undefined;
  if (option === "ignored") {
    await discardBody(request);
    return undefined;
  }
  if ("json" in option) return parseInput(option.json, await readJsonBody(request));
  const fields = await readFormBody(request);
  received(fields);
  return parseInput(option.form, fields);
}

function logUnexpectedError(request: Request, error: unknown): void {
  logger().error({ err: error, request_id: request.headers.get(REQUEST_ID_HEADER), path: loggedPath(new URL(request.url).pathname) }, "unhandled error");
}

export function route<A extends Authentication, R, P = Record<string, never>, B = undefined>(
  options: Options<A, P, B> & { answer: JsonAnswer<R> },
  operation: Operation<A, P, B, R>,
): RouteHandler;
export function route<A extends Authentication, P = Record<string, never>, B = undefined>(
  options: Options<A, P, B> & { answer: RedirectAnswer<P> },
  operation: Operation<A, P, B, Redirect>,
): RouteHandler;
export function route<A extends Authentication, P = Record<string, never>, B = undefined>(
  options: Options<A, P, B> & { answer: StreamAnswer },
  operation: Operation<A, P, B, ReadableStream<Uint8Array> | null>,
): RouteHandler;
export function route<A extends Authentication, P = Record<string, never>, B = undefined>(
  options: Options<A, P, B> & { answer: TextAnswer },
  operation: Operation<A, P, B, Text>,
): RouteHandler;
export function route<A extends Authentication, R, P, B>(
  options: Options<A, P, B> & { answer: JsonAnswer<R> | RedirectAnswer<P> | StreamAnswer | TextAnswer },
  operation: Operation<A, P, B, R | Redirect | ReadableStream<Uint8Array> | null | Text>,
): RouteHandler {
  const { answer } = options;
  return async (request, context) => {
    const cfg = config();
    const { headers } = request;
    // The query, origin and session token are worked out only for the
    // operations that read them: most routes never do, and this runs on every request.
    let search: URLSearchParams | undefined;
    const query = () => (search ??= new URL(request.url).searchParams);
    const raw = await context.params;
    // Parsed first, refused in its turn below: a form's way back needs its params even when
    // the same-origin check or authentication refuses the request.
    const parsed = options.params ? options.params.safeParse(raw) : { success: true as const, data: {} as P };
    const params = parsed.success ? parsed.data : undefined;
    const asked = options.wait ? preferredWait(headers.get("prefer")) : null;
    // Taken before anything waits, so that the bound holds however many requests arrive at once.
    const leaveWaitingRoom = asked ? enterWaitingRoom(cfg) : null;
    const wait = asked && leaveWaitingRoom === null ? null : asked;
    let formFields: Record<string, string> | undefined;
    try {
      if (options.sameOrigin) assertSameOrigin(cfg, headers);
      const auth = await authenticate(options.auth, cfg, headers, raw);
      if (!parsed.success) throw invalidRequest(parsed.error);
      const body = (await readBody(request, options.body, (fields) => (formFields = fields))) as B;
      const result = await operation({
        cfg,
        auth,
        params: parsed.data,
        body,
        get origin() {
          return requestOrigin(cfg, headers);
        },
        get query() {
          return query();
        },
        get sessionToken() {
          return sessionTokenFromHeaders(cfg, headers);
        },
        wait: wait ?? 0,
        signal: request.signal,
        headers,
      });
      if ("stream" in answer) {
        const stream = result as ReadableStream<Uint8Array> | null;
        // Next answers HEAD with the GET handler and neither reads nor cancels the body: unread,
        // the stream would follow the init, and keep its place in the waiting room, until the init ends.
        if (request.method !== "HEAD" || stream === null) return eventStreamResponse(stream);
        await stream.cancel();
        return eventStreamResponse(stream, { withoutBody: true });
      }
      if ("text" in answer) {
        const { contentType, body } = result as Text;
        return textResponse(body, contentType);
      }
      if ("redirect" in answer) {
        const { to, setCookie } = result as Redirect;
        return redirectResponse(cfg.appUrl, to, setCookie);
      }
      const applied: Record<string, string> = wait === null ? {} : { "Preference-Applied": `wait=${wait}` };
      return jsonResponse(answer.status, result, { ...answer.headers?.(result as R), ...applied });
    } catch (error) {
      if (!(error instanceof ApiError)) logUnexpectedError(request, error);
      const known = error instanceof ApiError ? error : new ApiError("internal_error", "Something went wrong on our side. Please try again.");
      if (!("redirect" in answer)) return errorResponse(known, "errorEnvelope" in answer ? answer.errorEnvelope : undefined, takesBearer(options.auth));
      const target = new URL(params === undefined ? "/" : answer.back(params, query()), cfg.appUrl);
      target.searchParams.set("error", known.code);
      const kept = answer.keep && formFields ? answer.keep(cfg, formFields, known) : undefined;
      return redirectResponse(cfg.appUrl, target.pathname + target.search, kept);
    } finally {
      leaveWaitingRoom?.();
    }
  };
}
