import type { Config } from "../config";
import { db, statementsInOneTransaction } from "../database/db";
import { ApiError } from "../errors";
import { BINDING_MESSAGE_MAX, SENDER_MAX } from "../field-lengths";
import { INIT_SECRET_PREFIX, initPageUrl } from "../init/create-init";
import { newUserCode } from "../init/user-code";
import { addressSubject, consumeRateLimit } from "../limits/rate-limit";
import { limitRules } from "../limits/rules";
import type { RequestOrigin } from "../request-origin";
import { hashSecret, randomId, randomSecret } from "../secrets";
import { optionalText, safeText } from "../text";
import { assertClientIdAccepted } from "./client-ids";
import { authorizationResponse, loopbackRedirectUri } from "./redirect-uri";

// The authorization endpoint (RFC 6749 §4.1.1) for native clients: the CLI opens the browser
// here and listens on a loopback port for the answer (RFC 8252). A request is one more way to
// create an init: the person approves it on the init page with every check an init has, and
// the approval mints the code (lib/oauth/authorization-code.ts). The order of the checks is
// RFC 6749 §4.1.2.1's: a client_id or redirect_uri that cannot be trusted is told to the person
// on this site's page and never redirected to; every other error goes back to the client with
// its `state` and our `iss` (RFC 9207). A refusal writes nothing.

/** RFC 7636 §4.2: a S256 challenge is the base64url of a SHA-256 digest, 43 characters; RFC 9449 §10's dpop_jkt is a thumbprint of that form too. */
const DIGEST = /^[A-Za-z0-9_-]{43}$/;
/** The client's state is echoed whole: kept short enough for a URL. */
export const STATE_MAX = 1000;

/** A client's error for the redirect: RFC 6749 §4.1.2.1's code and what to tell its developer. */
type ClientError = { error: "invalid_request" | "unsupported_response_type" | "temporarily_unavailable"; description: string };

const clientIdText = safeText(SENDER_MAX).min(1);

/** The one value of a parameter; RFC 6749 §3.1: one sent twice is invalid, one sent empty is omitted. */
function single(query: URLSearchParams, name: string): string | null | "repeated" {
  const values = query.getAll(name);
  if (values.length > 1) return "repeated";
  return values[0] === undefined || values[0] === "" ? null : values[0];
}

/** The client_id and redirect_uri, or the ApiError the person is shown on this site's page. */
function trustedClient(cfg: Config, query: URLSearchParams): { clientId: string; redirectUri: string } {
  const clientId = single(query, "client_id");
  // Kept exactly: the token request must name the same client_id (no trimming here).
  if (clientId === null || clientId === "repeated" || clientIdText.safeParse(clientId).data !== clientId) {
    throw new ApiError("invalid_client", "The application sent no usable client_id.");
  }
  assertClientIdAccepted(cfg, clientId);
  const redirectUri = single(query, "redirect_uri");
  if (redirectUri === null || redirectUri === "repeated" || loopbackRedirectUri(redirectUri) === null) {
    throw new ApiError("invalid_redirect_uri", "The application asked to be answered at an address that is not a loopback address of this computer.");
  }
  return { clientId, redirectUri };
}

type CheckedRequest = { state: string | null; codeChallenge: string; dpopJkt: string | null; bindingMessage: string | null };

const bindingMessageText = optionalText(BINDING_MESSAGE_MAX);

/** The rest of the request (RFC 6749 §4.1.1, RFC 7636 §4.3, RFC 9449 §10), or the error for the client. */
function checkedRequest(query: URLSearchParams): CheckedRequest | ClientError {
  const responseType = single(query, "response_type");
  if (responseType === null || responseType === "repeated") return { error: "invalid_request", description: "response_type is required, once." };
  if (responseType !== "code") return { error: "unsupported_response_type", description: "Only response_type=code is supported." };
  for (const name of ["state", "code_challenge", "code_challenge_method", "dpop_jkt", "scope", "binding_message"]) {
    if (single(query, name) === "repeated") return { error: "invalid_request", description: `${name} may be sent once.` };
  }
  const method = single(query, "code_challenge_method");
  const codeChallenge = single(query, "code_challenge");
  // RFC 7636 §4.3: no method means plain, which OAuth 2.1 and RFC 9700 §2.1.1 rule out.
  if (codeChallenge === null) return { error: "invalid_request", description: "PKCE is required: send code_challenge and code_challenge_method=S256." };
  if (method !== "S256") return { error: "invalid_request", description: "code_challenge_method must be S256." };
  if (!DIGEST.test(codeChallenge)) return { error: "invalid_request", description: "code_challenge must be the base64url SHA-256 of the code verifier (43 characters)." };
  const dpopJkt = single(query, "dpop_jkt");
  if (dpopJkt !== null && !DIGEST.test(dpopJkt)) return { error: "invalid_request", description: "dpop_jkt must be a JWK SHA-256 thumbprint (RFC 7638), base64url." };
  const bindingMessage = bindingMessageText.safeParse(single(query, "binding_message"));
  if (!bindingMessage.success) return { error: "invalid_request", description: `binding_message must be at most ${BINDING_MESSAGE_MAX} characters of plain text.` };
  return { state: single(query, "state"), codeChallenge, dpopJkt, bindingMessage: bindingMessage.data };
}

/** RFC 6749 Appendix A.5: a state is visible ASCII; one that is not, or is too long, is not echoed. */
const STATE = /^[\x20-\x7e]+$/;
const echoedState = (state: string | null | "repeated"): string | null => (state !== null && state !== "repeated" && state.length <= STATE_MAX && STATE.test(state) ? state : null);

/** Where the browser goes: the request's init page (`initId`: the route marks this browser as the one that opened it), or the client's redirect URI with an error. */
export type AuthorizationAnswer = { to: string; initId: string | null };

/**
 * Reads an authorization request and answers where the browser goes. Throws invalid_client or
 * invalid_redirect_uri for the person's page.
 */
export async function authorize(cfg: Config, query: URLSearchParams, origin: RequestOrigin): Promise<AuthorizationAnswer> {
  const { clientId, redirectUri } = trustedClient(cfg, query);
  const toClient = (error: ClientError["error"], description: string): AuthorizationAnswer => ({
    to: authorizationResponse(redirectUri, { error, error_description: description, state: echoedState(single(query, "state")), iss: cfg.appUrl }),
    initId: null,
  });
  const checked = checkedRequest(query);
  if ("error" in checked) return toClient(checked.error, checked.description);
  if (checked.state !== null && echoedState(checked.state) === null) return toClient("invalid_request", `state must be at most ${STATE_MAX} characters of visible ASCII.`);
  try {
    await consumeRateLimit(limitRules(cfg).createInit, addressSubject(origin.address));
  } catch (error) {
    if (error instanceof ApiError && error.code === "rate_limited") return toClient("temporarily_unavailable", error.message);
    throw error;
  }
  const id = await createAuthorizationInit(cfg, { clientId, redirectUri, ...checked }, origin);
  return { to: initPageUrl(cfg, id), initId: id };
}

/** The init and its authorization request, together; the init's secret is never handed out (the code is what the client gets). */
async function createAuthorizationInit(cfg: Config, request: CheckedRequest & { clientId: string; redirectUri: string }, origin: RequestOrigin): Promise<string> {
  const prisma = await db();
  const now = Date.now();
  const id = randomId();
  await statementsInOneTransaction([
    prisma.init.create({
      data: {
        id,
        userCode: newUserCode(),
        secretHash: hashSecret(randomSecret(INIT_SECRET_PREFIX)),
        sender: request.clientId,
        bindingMessage: request.bindingMessage,
        observedIp: origin.address,
        observedUserAgent: origin.userAgent,
        intervalMs: cfg.initIntervalMs,
        createdAt: new Date(now),
        expiresAt: new Date(now + cfg.initLifetimeMs),
        dpopJkt: request.dpopJkt,
      },
    }),
    prisma.authorizationRequest.create({ data: { initId: id, redirectUri: request.redirectUri, state: request.state, codeChallenge: request.codeChallenge } }),
  ]);
  return id;
}
