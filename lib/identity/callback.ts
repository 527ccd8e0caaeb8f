import * as client from "openid-client";
import { sessionUser, startSession } from "../auth/sessions";
import type { Config } from "../config";
import { ApiError } from "../errors";
import { addressSubject, consumeRateLimit } from "../limits/rate-limit";
import { limitRules } from "../limits/rules";
import type { RequestOrigin } from "../request-origin";
import { linkIdentity, signInIdentity, type ProviderIdentity } from "./accounts";
import { openFlow, outcomeOf, type Flow } from "./flow";
import { providerConfiguration, providerFailure, providerSettings, redirectUri } from "./provider";
import { flowSpent } from "./spent-flows";

// The provider's redirect back (OpenID Connect Core §3.1.2.5): the browser brings the answer
// (`code`, `state`, `iss`; or `error`), and its cookie the flow it started. The checks come in the
// order of the rules, before anything is asked of the provider or written: the flow is this
// browser's, the state is its own, a link's session is the one that started it, the flow did not
// complete before. Then the address's sign-in counter, openid-client's code exchange (PKCE's
// verifier, client_secret_basic) and its checks of the ID token (signature from the provider's
// JWKS, issuer, audience, expiry, nonce); only then is an account found, made or linked.

/** What a completed flow did: a session to start and where to go on, or the provider linked. */
export type FinishedFlow = { purpose: "sign_in"; session: string; returnTo: string } | { purpose: "link" };

/** The provider's answer checked by openid-client: who signed in, and the email it gave. */
async function verifiedIdentity(cfg: Config, flow: Flow, query: URLSearchParams): Promise<ProviderIdentity> {
  const settings = providerSettings(cfg);
  const configuration = await providerConfiguration(settings);
  const callback = redirectUri(cfg);
  callback.search = query.toString();
  try {
    const tokens = await client.authorizationCodeGrant(configuration, callback, {
      pkceCodeVerifier: flow.codeVerifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (claims === undefined) throw new ApiError("oidc_invalid_response", "Your identity provider sent no ID token.");
    // OpenID Connect Core §5.4: with a code, a provider may give the email at UserInfo alone;
    // its `sub` must be the ID token's (§5.3.2), which openid-client checks.
    const userInfo = claims.email === undefined && configuration.serverMetadata().userinfo_endpoint !== undefined ? await client.fetchUserInfo(configuration, tokens.access_token, claims.sub) : claims;
    return { issuer: claims.iss, subject: claims.sub, email: userInfo.email, emailVerified: userInfo.email_verified };
  } catch (error) {
    throw providerFailure(error, settings.issuer);
  }
}

/** A link completes only in the session that started it, signed in still. */
async function assertLinkingSession(flow: Extract<Flow, { purpose: "link" }>, sessionToken: string | undefined): Promise<void> {
  const user = await sessionUser(sessionToken);
  if (user === null || user.sessionId !== flow.sessionId || user.id !== flow.userId) {
    throw new ApiError("unauthorized", "Linking must end in the session that started it. Sign in and start again from the settings.");
  }
}

async function finish(cfg: Config, flow: Flow, query: URLSearchParams, origin: RequestOrigin, sessionToken: string | undefined): Promise<FinishedFlow> {
  // RFC 6749 §10.12: the answer carries this browser's own state, or it is someone else's (login CSRF).
  if (query.get("state") !== flow.state) throw new ApiError("oidc_state_mismatch", "This answer of the identity provider does not belong to the sign-in started in this browser.");
  if (flow.purpose === "link") await assertLinkingSession(flow, sessionToken);
  if (await flowSpent(flow)) throw new ApiError("oidc_replayed", "This answer of the identity provider was used before.");
  // Each answer taken to the provider counts against the address, as a sign-in attempt does.
  await consumeRateLimit(limitRules(cfg).authPerAddress, addressSubject(origin.address));
  const identity = await verifiedIdentity(cfg, flow, query);
  if (flow.purpose === "link") {
    await linkIdentity(flow, flow.userId, identity, origin);
    return { purpose: "link" };
  }
  const userId = await signInIdentity(flow, identity, origin);
  return { purpose: "sign_in", session: await startSession(cfg, userId, origin), returnTo: flow.returnTo };
}

/**
 * Completes the flow the browser's cookie holds (`sealed`) with the provider's answer (`query`).
 * A refusal names where the flow goes back to (the sign-in page with its way back, or the settings).
 */
export async function finishFlow(cfg: Config, sealed: string | undefined, query: URLSearchParams, origin: RequestOrigin, sessionToken: string | undefined): Promise<FinishedFlow> {
  const flow = openFlow(cfg, sealed);
  try {
    return await finish(cfg, flow, query, origin, sessionToken);
  } catch (error) {
    if (!(error instanceof ApiError) || error.data.oidcFlow !== undefined) throw error;
    throw new ApiError(error.code, error.message, { ...error.data, oidcFlow: outcomeOf(flow) });
  }
}
