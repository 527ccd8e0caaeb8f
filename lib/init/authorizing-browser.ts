import { createHmac, timingSafeEqual } from "node:crypto";
import type { Config } from "../config";
import { derivedKey } from "../crypto/derived-key";
import { isHttpsOrigin } from "../../server/request-context.mjs";

// The browser an authorization request was opened in (lib/oauth/authorization-request.ts). Its
// answer goes to a loopback port through the approving browser, so the one-click approval is
// for that browser alone: it carries a mark, set with the 303 to the request's page, that only
// this server can make (an HMAC of the init's id under a key from MASTER_KEY) and that is sent
// to that page alone (lib/api/authorizing-browser-cookie.ts). A link forwarded to someone else
// opens without it, and its page then offers Deny only (lib/init/code-check-mode.ts): an answer sent to that person's own loopback
// port would reach a listener of whoever can open one there, not the application that asked.

/** `__Secure-` over https: a page of plain http (or another site, before HSTS) cannot plant a mark it knows. */
export const authorizingBrowserCookieName = (cfg: Config) => (isHttpsOrigin(cfg.appUrl) ? "__Secure-initlink_authorizing" : "initlink_authorizing");

/** The mark of the browser that opened the request `initId`. */
export const authorizingBrowserMark = (cfg: Config, initId: string) =>
  createHmac("sha256", derivedKey(cfg.masterKey, "initlink authorizing browser")).update(initId).digest("base64url");

/** Whether a request's Cookie header carries the mark of the request `initId`. */
export function isAuthorizingBrowser(cfg: Config, initId: string, cookieHeader: string | null): boolean {
  const expected = Buffer.from(authorizingBrowserMark(cfg, initId));
  const name = authorizingBrowserCookieName(cfg);
  return (cookieHeader ?? "").split(";").some((part) => {
    const separator = part.indexOf("=");
    if (separator <= 0 || part.slice(0, separator).trim() !== name) return false;
    const presented = Buffer.from(part.slice(separator + 1).trim());
    return presented.length === expected.length && timingSafeEqual(presented, expected);
  });
}
