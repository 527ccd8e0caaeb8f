import type { Config } from "../config";
import { AUTHORIZING_BROWSER_COOKIE, authorizingBrowserMark } from "../init/authorizing-browser";
import { cookieAttributes } from "./session-cookie";

/** The Set-Cookie value that marks a browser as the one that opened the authorization request `initId` (lib/init/authorizing-browser.ts), sent to that request's page alone for as long as it lives. */
export function authorizingBrowserCookie(cfg: Config, initId: string): string {
  return `${AUTHORIZING_BROWSER_COOKIE}=${authorizingBrowserMark(cfg, initId)}; ${cookieAttributes(cfg, `/init/${initId}`, Math.ceil(cfg.initLifetimeMs / 1000))}`;
}
