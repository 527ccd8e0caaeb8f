import * as client from "openid-client";
import { z } from "zod";
import type { Config } from "../config";
import { seal, unseal } from "../crypto/sealed";
import { ApiError, type OidcFlowOutcome } from "../errors";
import { providerConfiguration, providerSettings, redirectUri } from "./provider";

// One sign-in or link through the provider, from its button to its callback: the authorization
// code flow (OpenID Connect Core §3.1) with PKCE (RFC 7636), `state` (RFC 6749 §10.12) and
// `nonce` (OpenID Connect Core §3.1.2.1). What the callback needs to check the answer stays with
// the browser that started it, sealed under MASTER_KEY (AES-256-GCM, lib/crypto/sealed.ts) in a
// short-lived HttpOnly cookie (lib/api/oidc-cookie.ts): never in a URL, nothing written when a flow
// starts, and an answer brought to another browser matches nothing there. The callback's row
// (OidcCallback) makes each flow complete once.

/** How long a flow may take, from the button to the provider's redirect back. */
export const FLOW_LIFETIME_SECONDS = 600;

/** What the flow is for: signing in (then back to `returnTo`), or linking the provider to the account of the session that started it. */
export type FlowPurpose = { purpose: "sign_in"; returnTo: string } | { purpose: "link"; userId: string; sessionId: string };

const checksSchema = z.object({
  issuer: z.string(),
  state: z.string(),
  nonce: z.string(),
  codeVerifier: z.string(),
  expiresAt: z.number(),
});

const flowSchema = z.discriminatedUnion("purpose", [
  checksSchema.extend({ purpose: z.literal("sign_in"), returnTo: z.string() }),
  checksSchema.extend({ purpose: z.literal("link"), userId: z.string(), sessionId: z.string() }),
]);

export type Flow = z.infer<typeof flowSchema>;

// The associated data of the sealed flow: a value sealed for anything else does not open as one.
const SEALED_AS = "oidc-flow";

/** Where a refusal of the flow sends the person back to: the sign-in page with its way back, or the settings. */
export const outcomeOf = (flow: Flow): OidcFlowOutcome => (flow.purpose === "sign_in" ? { purpose: "sign_in", returnTo: flow.returnTo } : { purpose: "link" });

/** A flow started: the provider's authorization URL to send the browser to, and the sealed flow its cookie keeps. */
export type StartedFlow = { authorizationUrl: URL; sealed: string };

/** Starts a flow for `purpose`: discovers the provider (oidc_unavailable without it) and makes its checks. */
export async function startFlow(cfg: Config, purpose: FlowPurpose, now = Date.now()): Promise<StartedFlow> {
  const settings = providerSettings(cfg);
  const configuration = await providerConfiguration(settings, now);
  const flow: Flow = {
    ...purpose,
    issuer: settings.issuer,
    state: client.randomState(),
    nonce: client.randomNonce(),
    codeVerifier: client.randomPKCECodeVerifier(),
    expiresAt: now + FLOW_LIFETIME_SECONDS * 1000,
  };
  const authorizationUrl = client.buildAuthorizationUrl(configuration, {
    redirect_uri: redirectUri(cfg).href,
    scope: settings.scopes.join(" "),
    // RFC 7636 §4.2: S256, never plain.
    code_challenge: await client.calculatePKCECodeChallenge(flow.codeVerifier),
    code_challenge_method: "S256",
    state: flow.state,
    nonce: flow.nonce,
  });
  return { authorizationUrl, sealed: seal(cfg.masterKey, Buffer.from(JSON.stringify(flow)), SEALED_AS) };
}

const notThisBrowsers = (why: string) => new ApiError("oidc_state_mismatch", `${why} Start again.`);

/**
 * The flow a callback's cookie holds, if it is one this service sealed, for the provider set up
 * now, and not expired; oidc_state_mismatch otherwise.
 */
export function openFlow(cfg: Config, sealed: string | undefined, now = Date.now()): Flow {
  const settings = providerSettings(cfg);
  if (sealed === undefined || sealed === "") throw notThisBrowsers("No sign-in through the identity provider is under way in this browser.");
  let flow: Flow;
  try {
    flow = flowSchema.parse(JSON.parse(unseal(cfg.masterKey, sealed, SEALED_AS).toString("utf8")));
  } catch {
    throw notThisBrowsers("The sign-in under way in this browser cannot be read.");
  }
  if (flow.expiresAt <= now) throw notThisBrowsers("The sign-in through the identity provider took longer than 10 minutes.");
  // Started for another provider (the setting changed since): its answer is not this one's to check.
  if (flow.issuer !== settings.issuer) throw notThisBrowsers("The sign-in under way was started with another identity provider.");
  return flow;
}
