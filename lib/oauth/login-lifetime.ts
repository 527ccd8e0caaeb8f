import type { Config } from "../config";

// How long an OAuth login (one refresh-token family, lib/oauth/refresh-tokens.ts) and each of
// its refresh tokens last. The absolute end is decided here alone, once, when the device code is
// exchanged: the lifetime a person chooses on the approval page will be one more input of it.

/** The absolute end of a login started at `startedAt`: OAUTH_LOGIN_LIFETIME_DAYS, however often it is refreshed. */
export function loginExpiresAt(cfg: Config, startedAt: number): Date {
  return new Date(startedAt + cfg.oauthLoginLifetimeMs);
}

/** A refresh token issued at `issuedAt` lapses after REFRESH_TOKEN_IDLE_DAYS unused, and with its login. */
export function refreshTokenExpiresAt(cfg: Config, issuedAt: number, loginEnd: Date): Date {
  return new Date(Math.min(issuedAt + cfg.refreshTokenIdleMs, loginEnd.getTime()));
}
