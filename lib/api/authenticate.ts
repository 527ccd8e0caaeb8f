import { sessionTokenFromHeaders } from "./session-cookie";
import { sessionUser, type SessionUser } from "../auth/sessions";
import type { Config } from "../config";
import { ApiError, clientAuthenticationFailed, invalidToken, notFound } from "../errors";
import { verifyLinkBearerForPath, type VerifiedLinkBearer } from "../links/link-bearer";
import { isLoopback } from "../ip-address";
import { hashSecret, secretMatchesHash } from "../secrets";
import { authenticateAccessToken, type AuthenticatedToken, type PresentedToken } from "../access-tokens/authenticate-access-token";
import type { DpopRequest } from "../oauth/dpop";
import type { IntrospectionCaller } from "../oauth/token-introspection";
import { authenticateResourceServer } from "../resource-servers/authenticate-resource-server";
import { basicCredentials, isBasicHeader } from "./basic-credentials";
import { clientAddress, requestOrigin } from "./client-address";

// How each operation's caller proves who it is, in one place. The route wrapper runs the mode an
// operation names before anything else of the request is read.

/** What each mode yields to the operation. */
export type Credentials = {
  none: null;
  /** A signed-in person (session cookie). */
  session: SessionUser;
  /** An access token (`Authorization: Bearer ilat_…`, or `DPoP ilat_…` with a proof for a bound one): Create Project Link. */
  accessToken: AuthenticatedToken;
  /**
   * Create Project Link's caller: an access token, or null for a request with no Authorization
   * at all while LEGACY_LINK_APPROVAL is on (a link approved in the browser; docs/api.md,
   * Compatibility with existing clients). With the switch off, exactly `accessToken`.
   */
  linkRequest: AuthenticatedToken | null;
  /**
   * Introspection's caller (RFC 7662 §2.1): a resource server's credential as `Authorization:
   * Basic` (client_secret_basic, RFC 6749 §2.3.1), or an access token as for `accessToken`.
   */
  introspection: IntrospectionCaller;
  /** A link bearer (`Authorization: Bearer <JWT>`) valid for the route's `projectId`. */
  linkBearer: VerifiedLinkBearer;
  /**
   * The init secret as presented, or null when none is: a poller without it still reads the
   * status. The operation checks it against the init's stored hash in the read it makes anyway.
   */
  initSecret: string | null;
  /**
   * A metrics scraper: with METRICS_TOKEN set, one that sends it as `Authorization: Bearer`;
   * without, any caller from a loopback address (docs/operations.md).
   */
  metrics: null;
};

export type Authentication = keyof Credentials;

/** The modes whose credential is sent as `Authorization: Bearer`: only their 401s carry a Bearer challenge. */
export const takesBearer = (mode: Authentication): boolean => mode !== "none" && mode !== "session";

/** The modes of the project API, which takes OAuth access tokens: their challenge names its RFC 9728 metadata. */
export const takesAccessTokens = (mode: Authentication): boolean => mode === "accessToken" || mode === "linkRequest";

export type RawParams = Record<string, string | string[] | undefined>;

type Authenticator<A extends Authentication> = (cfg: Config, headers: Headers, params: RawParams, dpop: DpopRequest) => Promise<Credentials[A]>;

const BEARER_HEADER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;
// Existing clients put the link's `bearer` ("Bearer <JWT>") after their own "Bearer ": one
// doubled prefix, and nothing looser, is read as the single one (docs/api.md, Compatibility).
const DOUBLED_BEARER_HEADER = /^Bearer +Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/**
 * The credential of `Authorization: Bearer <credential>` (RFC 6750 §2.1), or null when the
 * header is absent. A header in any other form is refused rather than ignored.
 */
function bearerCredential(headers: Headers, onInvalid: () => ApiError, allowDoubledPrefix = false): string | null {
  const header = headers.get("authorization");
  if (header === null) return null;
  const match = (allowDoubledPrefix ? DOUBLED_BEARER_HEADER.exec(header) : null) ?? BEARER_HEADER.exec(header);
  if (match === null) throw onInvalid();
  return match[1];
}

// RFC 9449 §7.1: a DPoP-bound access token comes under the DPoP scheme, with the same token68 syntax.
const DPOP_HEADER = /^DPoP +([A-Za-z0-9\-._~+/]+=*) *$/i;

/** The access token of `Authorization: Bearer <token>` or `Authorization: DPoP <token>`, with its scheme; null when absent. */
function presentedAccessToken(headers: Headers): PresentedToken | null {
  const dpop = DPOP_HEADER.exec(headers.get("authorization") ?? "");
  if (dpop !== null) return { scheme: "DPoP", token: dpop[1] };
  const token = bearerCredential(headers, () => invalidToken("Send the access token as Authorization: Bearer <token> (DPoP <token> for a DPoP-bound one)."));
  return token === null ? null : { scheme: "Bearer", token };
}

const accessTokenOf = (cfg: Config, headers: Headers, dpop: DpopRequest) => authenticateAccessToken(cfg, presentedAccessToken(headers), dpop);

const AUTHENTICATORS: { [A in Authentication]: Authenticator<A> } = {
  none: async () => null,
  session: async (cfg, headers) => {
    const user = await sessionUser(sessionTokenFromHeaders(cfg, headers), requestOrigin(cfg, headers));
    if (user === null) throw new ApiError("unauthorized", "Sign in first.");
    return user;
  },
  accessToken: async (cfg, headers, _params, dpop) => accessTokenOf(cfg, headers, dpop),
  linkRequest: async (cfg, headers, _params, dpop) => (cfg.legacyLinkApproval.enabled && headers.get("authorization") === null ? null : accessTokenOf(cfg, headers, dpop)),
  introspection: async (cfg, headers, _params, dpop) => {
    const header = headers.get("authorization");
    if (header === null || !isBasicHeader(header)) return { accessToken: await accessTokenOf(cfg, headers, dpop) };
    const credentials = basicCredentials(header);
    if (credentials === null) {
      throw clientAuthenticationFailed("Send the resource-server credential as Authorization: Basic with the base64 of client_id:client_secret, each form-encoded first (RFC 6749 §2.3.1).");
    }
    return { resourceServer: await authenticateResourceServer(credentials.clientId, credentials.clientSecret) };
  },
  linkBearer: async (cfg, headers, params) => {
    const message = "Send the link's bearer as Authorization: Bearer <JWT>.";
    const jwt = bearerCredential(headers, () => invalidToken(message), true);
    if (jwt === null) throw new ApiError("unauthorized", message);
    return verifyLinkBearerForPath(cfg, jwt, typeof params.projectId === "string" ? params.projectId : "");
  },
  initSecret: async (_cfg, headers) =>
    bearerCredential(headers, () => new ApiError("invalid_secret", "Send the init's secret as Authorization: Bearer <secret>.")),
  metrics: async (cfg, headers) => {
    if (cfg.metricsToken === null) {
      if (isLoopback(clientAddress(headers, cfg.trustedProxies))) return null;
      throw notFound("Metrics are served to loopback callers only unless METRICS_TOKEN is set.");
    }
    const message = "Send METRICS_TOKEN as Authorization: Bearer <token>.";
    const token = bearerCredential(headers, () => invalidToken(message));
    if (token === null) throw new ApiError("unauthorized", message);
    if (!secretMatchesHash(token, hashSecret(cfg.metricsToken))) throw invalidToken(message);
    return null;
  },
};

export function authenticate<A extends Authentication>(mode: A, cfg: Config, headers: Headers, params: RawParams, dpop: DpopRequest): Promise<Credentials[A]> {
  const authenticator: Authenticator<A> = AUTHENTICATORS[mode];
  return authenticator(cfg, headers, params, dpop);
}
