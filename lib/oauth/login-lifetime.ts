import type { Config } from "../config";
import { accessExpiresAt } from "../init/access-lifetime";

// How long an OAuth login (one refresh-token family, lib/oauth/refresh-tokens.ts) and each of
// its refresh tokens last. The absolute end is decided here alone, once, when the device code is
// exchanged: the access lifetime the person chose on the approval page.

/** The absolute end of a login started at `startedAt`, however often it is refreshed: the lifetime the person chose (`chosenSeconds`, null: the preselected one). */
export function loginExpiresAt(cfg: Config, chosenSeconds: number | null, startedAt: number): Date {
  return accessExpiresAt(cfg, chosenSeconds, new Date(startedAt));
}

/** A refresh token issued at `issuedAt` lapses after REFRESH_TOKEN_IDLE_DAYS unused, and with its login. */
export function refreshTokenExpiresAt(cfg: Config, issuedAt: number, loginEnd: Date): Date {
  return new Date(Math.min(issuedAt + cfg.refreshTokenIdleMs, loginEnd.getTime()));
}
