import type { Config } from "../config";
import { authorizingBrowserCookieName, authorizingBrowserMark } from "../init/authorizing-browser";
import { AUTHORIZATION_CODE_LIFETIME_MS } from "../init/authorization-code";
import { cookieAttributes } from "./session-cookie";

/**
 * The way back is the mark's after the request's end too: an approval in its last second still
 * sends its code, and an expiry its access_denied.
 */
const AFTER_THE_END_SECONDS = 600;

/** The Set-Cookie value that marks a browser as the one that opened the authorization request `initId` (lib/init/authorizing-browser.ts), sent to that request's page alone. */
export function authorizingBrowserCookie(cfg: Config, initId: string): string {
  const seconds = Math.ceil((cfg.initLifetimeMs + AUTHORIZATION_CODE_LIFETIME_MS) / 1000) + AFTER_THE_END_SECONDS;
  return `${authorizingBrowserCookieName(cfg)}=${authorizingBrowserMark(cfg, initId)}; ${cookieAttributes(cfg, `/init/${initId}`, seconds)}`;
}
