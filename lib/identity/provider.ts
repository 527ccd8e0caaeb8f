import * as client from "openid-client";
import { logger } from "../../server/logger.mjs";
import type { Config } from "../config";
import { ApiError } from "../errors";
import { processWide } from "../process-wide";

// The platform's OpenID Connect provider, as openid-client (a certified relying party) discovers
// it from OIDC_ISSUER's metadata (OpenID Connect Discovery 1.0 §4): once per process, again after
// an hour so that changed metadata is picked up. A failed discovery is not kept: the next sign-in
// asks again. The provider's signing keys come from its JWKS, which openid-client fetches, and
// fetches again when an ID token names a key it has not seen (a rotation).

export type ProviderSettings = NonNullable<Config["oidc"]>;

const REDISCOVER_AFTER_MS = 60 * 60_000;
/** Seconds each request to the provider may take: a provider that hangs holds no sign-in for long. */
const PROVIDER_TIMEOUT_SECONDS = 10;

type Discovered = { at: number; configuration: Promise<client.Configuration> };
const discovered = processWide("oidc-provider-configurations", () => new Map<string, Discovered>());

/** The provider's settings; oidc_not_configured without OIDC_ISSUER. */
export function providerSettings(cfg: Config): ProviderSettings {
  if (cfg.oidc === null) throw new ApiError("oidc_not_configured", "No identity provider is set up on this service.");
  return cfg.oidc;
}

/** Whether two issuer identifiers are one (compared as URLs, as discovery compares them: a trailing slash of an origin aside). */
export const sameIssuer = (a: string, b: string): boolean => new URL(a).href === new URL(b).href;

/** Where the provider sends the browser back (the client's registered redirect URI). */
export const redirectUri = (cfg: Config): URL => new URL("/auth/oidc/callback", cfg.appUrl);

async function discover(settings: ProviderSettings): Promise<client.Configuration> {
  // The ID token's signature is checked against the provider's JWKS, not left to TLS alone
  // (OpenID Connect Core §3.1.3.7 allows that); http only for an issuer on this machine
  // (server/config.mjs refuses any other).
  const execute = [client.enableNonRepudiationChecks, ...(new URL(settings.issuer).protocol === "http:" ? [client.allowInsecureRequests] : [])];
  // client_secret_basic: the one client authentication every OAuth server must support (RFC 6749 §2.3.1).
  const configuration = await client.discovery(new URL(settings.issuer), settings.clientId, settings.clientSecret, client.ClientSecretBasic(settings.clientSecret), {
    execute,
    timeout: PROVIDER_TIMEOUT_SECONDS,
  });
  configuration.timeout = PROVIDER_TIMEOUT_SECONDS;
  return configuration;
}

/** The provider's configuration for openid-client; oidc_unavailable when its metadata cannot be had. */
export async function providerConfiguration(settings: ProviderSettings, now = Date.now()): Promise<client.Configuration> {
  const key = `${settings.issuer}\n${settings.clientId}\n${settings.clientSecret}`;
  let entry = discovered.get(key);
  if (entry === undefined || now - entry.at >= REDISCOVER_AFTER_MS) {
    const configuration = discover(settings);
    entry = { at: now, configuration };
    discovered.set(key, entry);
    configuration.catch(() => {
      if (discovered.get(key)?.configuration === configuration) discovered.delete(key);
    });
  }
  try {
    return await entry.configuration;
  } catch (error) {
    logger().warn({ err: error, issuer: settings.issuer, ...providerAnswer(error) }, "identity provider: discovery failed");
    throw new ApiError("oidc_unavailable", "Your identity provider's metadata could not be read.");
  }
}

/** What the log says of a failure of the provider: its class, code and message, never a token. */
/**
 * What the provider said, beside the error itself (the logger's `err`: its type, message, stack
 * and code, secrets cut out): openid-client's OAuth `error` and HTTP status, and the network
 * failure under a fetch error.
 */
function providerAnswer(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return {};
  const coded = error as Error & { error?: unknown; status?: unknown };
  const cause = error.cause instanceof Error ? ((error.cause as Error & { code?: unknown }).code ?? error.cause.message) : undefined;
  return { provider_error: coded.error, provider_status: coded.status, cause };
}

// The answers of openid-client that mean the provider could not be reached or did not speak OAuth.
const UNREACHABLE_CODES = new Set(["OAUTH_TIMEOUT", "OAUTH_ABORT", "OAUTH_RESPONSE_IS_NOT_CONFORM", "OAUTH_RESPONSE_IS_NOT_JSON"]);

/**
 * What a failure of the authorization response, the code exchange or UserInfo means to the
 * person: cancelled or refused at the provider (OpenID Connect Core §3.1.2.6), the provider out of
 * reach, or an answer that does not verify. Anything else is ours, and thrown as it is.
 */
export function providerFailure(error: unknown, issuer: string): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof client.AuthorizationResponseError) return new ApiError("oidc_denied", `Your identity provider answered ${error.error}.`);
  const unreachable =
    (error instanceof TypeError && !(error instanceof client.ClientError) && !("code" in error)) ||
    (error instanceof client.ClientError && UNREACHABLE_CODES.has(error.code ?? "")) ||
    (error instanceof client.ResponseBodyError && error.status >= 500);
  const verifiable = error instanceof client.ClientError || error instanceof client.ResponseBodyError || error instanceof client.WWWAuthenticateChallengeError;
  if (!unreachable && !verifiable) throw error;
  logger().warn({ err: error, issuer, ...providerAnswer(error) }, unreachable ? "identity provider: unreachable" : "identity provider: its answer was refused");
  return unreachable
    ? new ApiError("oidc_unavailable", "Your identity provider could not be reached.")
    : new ApiError("oidc_invalid_response", `Your identity provider's answer was refused: ${error.message}`);
}
