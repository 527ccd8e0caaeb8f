import { logger } from "../../server/logger.mjs";
import { retryFrame, stepFrames, type StreamStep } from "../../server/event-stream.mjs";
import { PARK_ANSWER_HEADER, PARKING_HEADER, parkingOf, readParkingHeader, registerParking, type ResumingEnd } from "../../server/parking.mjs";
import { loggedPath, REQUEST_ID_HEADER } from "../../server/request-context.mjs";
import { config, type Config } from "../config";
import { databaseBusy, isDatabaseBusy } from "../database/busy";
import { ApiError, ERRORS, rateLimited, secondsToWait } from "../errors";
import { dpopNonce, type DpopRequest } from "../oauth/dpop";
import type { InitWatch, WaitEnd } from "../init/init-events";
import type { RequestOrigin } from "../request-origin";
import { protectedResourceMetadataUrl } from "../oauth/protected-resource-metadata";
import { authenticate, takesAccessTokens, takesBearer, type Authentication, type Credentials, type RawParams } from "./authenticate";
import { discardBody, readFormBody, readJsonBody, readOAuthFormBody } from "./body";
import { clientAddress, requestOrigin } from "./client-address";
import { eventStream, type EventSource } from "./event-stream";
import type { Answer, BodyOption, Dialect, JsonAnswer, Operation, StreamAnswer, TextAnswer } from "./operation";
import { preferredWait } from "./prefer";
import { errorResponse, eventStreamResponse, jsonResponse, noContentResponse, redirectResponse, textResponse } from "./response";
import { assertSameOrigin } from "./same-origin";
import { clearedSessionCookie, sessionCookie, sessionTokenFromHeaders } from "./session-cookie";
import { invalidRequest, parseInput } from "./validate";
import { enterWaitingRoom, placesPerAddress } from "./waiting-room";

// The one wrapper of every route handler. A route file passes its operation's declaration
// (lib/api/operations/) and a function that calls one function in lib/ with what the wrapper
// parsed; everything HTTP happens here, in this order: same-origin check, authentication,
// params, body, the operation, the answer. A thrown ApiError becomes its status and JSON body
// (or, for a form, a 303 back to the form's page with ?error=<code>); anything else is our
// fault: logged with the request id, answered with a generic 500 that carries no detail. An
// operation that streams returns what it follows (framed as Server-Sent Events here, or parked at
// the production server's edge between its steps: server/parking.mjs), or null for 204 No
// Content; every check it makes comes before. Requests that wait (`Prefer: wait`) and streams
// take a place in the process's waiting room here, and nowhere else.

export type RouteHandler = (request: Request, context: { params: Promise<RawParams> }) => Promise<Response>;

/**
 * A 303 See Other to a path of this site (or a URL elsewhere: the identity provider); with
 * `session`, the browser's session starts (its token) or ends (null); `cookies`, more to set.
 */
type Redirect = { to: string | URL; session?: string | null; cookies?: string[] };

type Text = { contentType: string; body: string };

/**
 * A wait the edge parks (server/parking.mjs) instead of the handler holding it: on the first
 * pass (`resumed` null) park() hands the edge what wakes it; on a pass the edge resumed (why, and
 * when the wait ends) park() parks it again. Unless the handler calls park(), it answers.
 */
export type EdgeHold = { resumed: { end: Exclude<WaitEnd, "aborted">; until: number } | null; park: (watch: InitWatch | null, until: number) => void };

/** What the operation's function returns for each kind of answer. */
type ResultOf<Ans> = Ans extends JsonAnswer<infer R> ? R : Ans extends StreamAnswer ? EventSource | null : Ans extends TextAnswer ? Text : Redirect;

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
  /** Set when the edge parks this wait (the production server): the handler must not hold it itself. */
  edgeHold: EdgeHold | null;
  headers: Headers;
  /** The request's DPoP proof, method and URL (on APP_URL), for an operation that takes proofs. */
  dpop: DpopRequest;
};

/** Reads the body; a form's raw fields go to `received` before they are parsed. */
async function readBody<B>(request: Request, option: BodyOption<B> | undefined, dialect: Dialect, received: (fields: Record<string, string>) => void): Promise<B | undefined> {
  if (option === undefined) return undefined;
  if (option === "ignored") {
    await discardBody(request);
    return undefined;
  }
  if ("json" in option) return parseInput(option.json, await readJsonBody(request));
  const fields = dialect === "oauth" ? await readOAuthFormBody(request) : await readFormBody(request);
  received(fields);
  return parseInput(option.form, fields);
}

function logUnexpectedError(request: Request, error: unknown): void {
  logger().error({ err: error, request_id: request.headers.get(REQUEST_ID_HEADER), path: loggedPath(new URL(request.url).pathname) }, "unhandled error");
}

// A busy database refuses many requests at once: a line a minute (per route) says so.
const BUSY_WARNING_INTERVAL_MS = 60_000;
let busyWarnedAt = Number.NEGATIVE_INFINITY;

function warnDatabaseBusy(request: Request, error: unknown): void {
  if (Date.now() - busyWarnedAt < BUSY_WARNING_INTERVAL_MS) return;
  busyWarnedAt = Date.now();
  logger().warn(
    { err: error, request_id: request.headers.get(REQUEST_ID_HEADER), path: loggedPath(new URL(request.url).pathname) },
    "database busy: answered 503 unavailable (at most one such line a minute)",
  );
}

function withHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

const PARK: Record<string, string> = { [PARK_ANSWER_HEADER]: "park" };

// A parking is an instance of a class, without closures: a closure keeps the whole scope it was
// made in, and the bundler inlines small functions into route()'s, whose scope holds the request
// and through it Next.js's state of the request, for as long as the client waits.

/** A parked wait: woken by its watch or at `until`; released, the watch and the place (`leave`) go. */
class WaitParking {
  readonly kind = "wait";
  constructor(
    private readonly watch: InitWatch,
    readonly until: number,
    readonly seconds: number,
    private readonly leave: (() => void) | null,
  ) {}

  next(signal: AbortSignal): Promise<WaitEnd> {
    return this.watch.next(this.until, signal);
  }

  release(): void {
    this.watch.close();
    this.leave?.();
  }
}

/** A parked stream: its source's steps and waits; released, the source and the place (`leave`) go. */
class StreamParking {
  readonly kind = "stream";
  constructor(
    private readonly source: EventSource,
    private readonly leave: () => void,
  ) {}

  next(signal: AbortSignal): Promise<WaitEnd> {
    return this.source.wait(signal);
  }

  step(end: ResumingEnd): Promise<StreamStep> {
    return this.source.step(end);
  }

  release(): void {
    this.source.close();
    this.leave();
  }
}

/**
 * The first pass of a stream the edge offers to park (server/parking.mjs): `retry` and the event
 * due now, and, while more may follow, the rest left with the edge. The edge writes this answer's
 * headers and frames and keeps the socket; the source, its follower's count and its place in the
 * waiting room (`leave`) are let go of when the edge releases the parking.
 */
async function parkedStream(id: number, source: EventSource, leave: () => void): Promise<Response> {
  const parking = new StreamParking(source, leave);
  try {
    const step = await source.step(null);
    const frames = retryFrame(source.retryMs) + stepFrames(step);
    if (!step.more) {
      parking.release();
      return eventStreamResponse(frames);
    }
    registerParking(id, parking);
    return eventStreamResponse(frames, PARK);
  } catch (error) {
    parking.release();
    throw error;
  }
}

/**
 * A parked stream the edge sends through again (a change noticed, the row's reread due, the
 * process stopping): the frames of its next step, parked again while more may follow. Released
 * meanwhile (its client went, or its lifetime ended), it has nothing more to say.
 */
async function resumedStream(id: number, end: ResumingEnd): Promise<Response> {
  const parking = parkingOf(id);
  if (parking?.kind !== "stream") return eventStreamResponse("");
  const step = await parking.step(end);
  return eventStreamResponse(stepFrames(step), step.more ? PARK : {});
}

export function route<A extends Authentication, P, B, Ans extends Answer<P, never>>(
  op: Operation<A, P, B, Ans>,
  handler: (input: OperationInput<A, P, B>) => Promise<ResultOf<Ans>>,
): RouteHandler {
  // The declaration's answer takes the result the handler returns: TypeScript cannot see that through ResultOf's condition.
  const answer = op.answer as Answer<P, ResultOf<Ans>>;
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
    const parsed = op.params ? op.params.safeParse(raw) : { success: true as const, data: {} as P };
    const params = parsed.success ? parsed.data : undefined;
    // The edge's mark (server/parking.mjs), trusted only with this process's token: an offer to
    // park the wait or the stream, or a parked one sent through again (which holds its place already).
    const edgeMark = op.wait || "stream" in answer ? readParkingHeader(headers.get(PARKING_HEADER)) : null;
    const parking = edgeMark?.end ? parkingOf(edgeMark.id) : undefined;
    const resumed = parking?.kind === "wait" ? parking : undefined;
    // RFC 9110 §9.3.2: a HEAD answer has no content to wait for, so it is answered at once
    // (held, it would cost the route's whole request, several times what the waiting room budgets).
    const asked = resumed ? resumed.seconds : op.wait && request.method !== "HEAD" ? preferredWait(headers.get("prefer")) : null;
    // Taken before anything waits, so that the bound holds however many requests arrive at once.
    // Without a place (the room full, or the address holding its share) it is answered as a poll.
    const place = asked && !resumed ? enterWaitingRoom(cfg, clientAddress(headers, cfg.trustedProxies), "wait") : null;
    const leaveWaitingRoom = place !== null && "leave" in place ? place.leave : null;
    const wait = place !== null && "refused" in place ? null : asked;
    // Parked, the place goes with the parking: the edge lets go of it once the wait is answered.
    let parked = false;
    const edgeHold: EdgeHold | null =
      wait === null || edgeMark === null
        ? null
        : resumed !== undefined && edgeMark.end
          ? { resumed: { end: edgeMark.end, until: resumed.until }, park: () => (parked = true) }
          : edgeMark.end === null
            ? {
                resumed: null,
                park: (watch, until) => {
                  if (watch === null) return;
                  registerParking(edgeMark.id, new WaitParking(watch, until, wait, leaveWaitingRoom));
                  parked = true;
                },
              }
            : null;
    let formFields: Record<string, string> | undefined;
    // RFC 9449 §8: every answer of an operation that takes proofs carries the nonce to put in the next.
    const nonce: Record<string, string> = op.dpop ? { "DPoP-Nonce": dpopNonce(cfg) } : {};
    const dpop: DpopRequest = {
      proof: headers.get("dpop"),
      method: request.method,
      // Parsed only for a proof that is checked.
      get url() {
        return `${cfg.appUrl}${new URL(request.url).pathname}`;
      },
    };
    try {
      if (op.sameOrigin) assertSameOrigin(cfg, headers);
      const auth = await authenticate(op.auth, cfg, headers, raw, dpop);
      if (!parsed.success) throw invalidRequest(parsed.error);
      if ("stream" in answer && edgeMark?.end) return await resumedStream(edgeMark.id, edgeMark.end);
      const body = (await readBody(request, op.body, op.dialect ?? "initlink", (fields) => (formFields = fields))) as B;
      const result = await handler({
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
        edgeHold,
        headers,
        dpop,
      });
      if ("stream" in answer) {
        const source = result as EventSource | null;
        if (source === null) return noContentResponse();
        // Next answers HEAD with the GET handler and neither reads nor cancels the body: unread,
        // a stream would follow its source, and keep its place in the waiting room, until the source ends.
        if (request.method === "HEAD") {
          source.close();
          return eventStreamResponse(null);
        }
        const streamPlace = enterWaitingRoom(cfg, clientAddress(headers, cfg.trustedProxies), "stream");
        if ("refused" in streamPlace) {
          source.close();
          const retryInSeconds = secondsToWait(source.retryMs);
          if (streamPlace.refused === "full") throw new ApiError("server_busy", ERRORS.server_busy.example, { retryInSeconds });
          throw rateLimited(`At most ${placesPerAddress(cfg.waitingPerProcess)} event streams and waiting requests per address at once.`, retryInSeconds);
        }
        if (edgeMark !== null) return await parkedStream(edgeMark.id, source, streamPlace.leave);
        return eventStreamResponse(eventStream(source, streamPlace.leave, request.signal));
      }
      if ("text" in answer) {
        const { contentType, body } = result as Text;
        return textResponse(body, contentType);
      }
      if ("redirect" in answer) {
        const { to, session, cookies = [] } = result as Redirect;
        return redirectResponse(cfg.appUrl, to, session === undefined ? cookies : [session === null ? clearedSessionCookie(cfg) : sessionCookie(cfg, session), ...cookies]);
      }
      const applied: Record<string, string> = wait === null ? {} : { "Preference-Applied": `wait=${wait}` };
      return jsonResponse(answer.status, result, { ...answer.headers?.(result), ...applied, ...(parked ? PARK : {}), ...nonce });
    } catch (error) {
      const busy = !(error instanceof ApiError) && isDatabaseBusy(error);
      if (busy) warnDatabaseBusy(request, error);
      else if (!(error instanceof ApiError)) logUnexpectedError(request, error);
      const known = error instanceof ApiError ? error : busy ? databaseBusy() : new ApiError("internal_error", ERRORS.internal_error.example);
      if (!("redirect" in answer)) {
        const resourceMetadata = takesAccessTokens(op.auth) ? protectedResourceMetadataUrl(cfg) : null;
        return withHeaders(errorResponse(known, op.errorEnvelope, takesBearer(op.auth), op.dialect, resourceMetadata), nonce);
      }
      const target = new URL(params === undefined ? "/" : answer.back(params, query(), known), cfg.appUrl);
      target.searchParams.set("error", known.code);
      const kept = answer.keep && formFields ? [answer.keep(cfg, formFields, known)] : [];
      return redirectResponse(cfg.appUrl, target.pathname + target.search, answer.clear ? [...kept, answer.clear(cfg)] : kept);
    } finally {
      if (!parked) leaveWaitingRoom?.();
    }
  };
}
