import { ERRORS, oauthError, type ApiError } from "../errors";
import { DPOP_ALGORITHMS } from "../oauth/schemas";
import type { Dialect } from "./operation";

// Answers of the API are never cached: they carry state that changes and, later, secrets.
const API_HEADERS = { "Cache-Control": "no-store" };

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { ...API_HEADERS, ...headers } });
}

/** A 200 answer of `contentType` (the metrics' text format). */
export function textResponse(body: string, contentType: string): Response {
  return new Response(body, { status: 200, headers: { ...API_HEADERS, "Content-Type": contentType } });
}

/**
 * The JSON answer for an error; `envelope` adds fields a route's contract puts on every failure.
 * `bearerChallenge`: the route takes `Authorization: Bearer`, so its 401 says so (RFC 6750 §3);
 * a route signed in by the session cookie has no scheme to name and names none.
 * `resourceMetadata`: the route is the project API, whose challenge names its RFC 9728 metadata (§5.1).
 */
export function errorResponse(error: ApiError, envelope: Record<string, unknown> = {}, bearerChallenge = false, dialect: Dialect = "initlink", resourceMetadata: string | null = null): Response {
  if (dialect === "oauth") return oauthErrorResponse(error, bearerChallenge);
  const { fields, interval, retryInSeconds } = error.data;
  const { status } = ERRORS[error.code];
  const headers: Record<string, string> = {};
  if (retryInSeconds !== undefined) headers["Retry-After"] = String(retryInSeconds);
  if (status === 401 && (error.data.challenge === "DPoP" || error.code === "invalid_dpop_proof" || error.code === "use_dpop_nonce")) {
    // RFC 9449 §7.1: a DPoP-bound token, or its proof, refused.
    headers["WWW-Authenticate"] = `DPoP realm="initlink", error="${error.code}", algs="${DPOP_ALGORITHMS.join(" ")}"${resourceMetadataParameter(resourceMetadata)}`;
  } else if (status === 401 && bearerChallenge) {
    headers["WWW-Authenticate"] = bearerChallengeOf(error, resourceMetadata);
  }
  return jsonResponse(
    status,
    {
      ...envelope,
      error: error.message,
      code: error.code,
      ...(fields ? { fields } : {}),
      ...(interval !== undefined ? { interval } : {}),
    },
    headers,
  );
}

/** RFC 9728 §5.1: where the resource's metadata is, in a challenge of any scheme. */
const resourceMetadataParameter = (resourceMetadata: string | null) => (resourceMetadata === null ? "" : `, resource_metadata="${resourceMetadata}"`);

/** RFC 6750 §3: a presented but unusable credential is named as such. */
function bearerChallengeOf(error: ApiError, resourceMetadata: string | null): string {
  const named = error.code === "invalid_token" ? ', error="invalid_token"' : "";
  return `Bearer realm="initlink"${named}${resourceMetadataParameter(resourceMetadata)}`;
}

/**
 * RFC 6749 §5.2: `{error, error_description}`, never cached (§5.1). Retry-After only where
 * HTTP gives it a meaning (429, 503): a slow_down's new interval is the client's to keep (RFC 8628 §3.5).
 * An endpoint its caller authenticates with a bearer (introspection, RFC 7662 §2.3) challenges
 * as RFC 6750 §3 says on a 401; a client refused its Basic credentials is challenged under Basic
 * (RFC 6749 §5.2: the scheme the client used).
 */
function oauthErrorResponse(error: ApiError, bearerChallenge: boolean): Response {
  const { error: code, status } = oauthError(error.code);
  const retry = error.data.retryInSeconds;
  const headers: Record<string, string> = retry !== undefined && (status === 429 || status === 503) ? { "Retry-After": String(retry) } : {};
  if (status === 401 && error.data.challenge === "Basic") headers["WWW-Authenticate"] = 'Basic realm="initlink"';
  else if (status === 401 && bearerChallenge) headers["WWW-Authenticate"] = bearerChallengeOf(error, null);
  return jsonResponse(status, { error: code, error_description: error.message }, headers);
}

/**
 * 303 See Other to a path of this service, built on APP_URL (never on the request's Host), or to
 * `to` as a URL elsewhere (the identity provider's authorization endpoint); each of `cookies` set.
 */
export function redirectResponse(appUrl: string, to: string | URL, cookies: readonly string[] = []): Response {
  const headers = new Headers({ Location: (to instanceof URL ? to : new URL(to, appUrl)).toString(), "Cache-Control": "no-store" });
  for (const cookie of cookies) headers.append("Set-Cookie", cookie);
  return new Response(null, { status: 303, headers });
}

/** 204 No Content: nothing more to send (an EventSource stops reconnecting). */
export const noContentResponse = (): Response => new Response(null, { status: 204, headers: API_HEADERS });

/**
 * A Server-Sent Events answer (its headers alone for HEAD; a parked stream's frames due now, for
 * the edge to write). no-transform keeps the server's compression from buffering the events.
 */
export function eventStreamResponse(body: ReadableStream<Uint8Array> | string | null, headers: Record<string, string> = {}): Response {
  return new Response(body, {
    headers: { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store, no-transform", "X-Accel-Buffering": "no", ...headers },
  });
}
