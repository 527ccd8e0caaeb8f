import type { Config } from "../config";
import { ApiError } from "../errors";
import { isHttpsOrigin } from "../../server/request-context.mjs";

// The session cookie holds only a random token; the database keeps its SHA-256
// (lib/auth/sessions.ts). `__Host-` pins the cookie to this origin over https.

export function sessionCookieName(cfg: Config): string {
  return isHttpsOrigin(cfg.appUrl) ? "__Host-initlink_session" : "initlink_session";
}

/** The attributes of every cookie this site sets: never read by scripts, sent on top-level navigations, Secure over https. */
export function cookieAttributes(cfg: Config, path: string, maxAgeSeconds: number): string {
  const secure = isHttpsOrigin(cfg.appUrl) ? "; Secure" : "";
  return `Path=${path}; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure}`;
}

/** The Set-Cookie value that hands a browser its session token. */
export function sessionCookie(cfg: Config, token: string): string {
  return `${sessionCookieName(cfg)}=${token}; ${cookieAttributes(cfg, "/", Math.floor(cfg.sessionLifetimeMs / 1000))}`;
}

export function clearedSessionCookie(cfg: Config): string {
  return `${sessionCookieName(cfg)}=; ${cookieAttributes(cfg, "/", 0)}`;
}

/**
 * The session token a request's Cookie header carries: the one parser of the session cookie, for
 * routes and pages alike. A browser sends every cookie of that name whose path matches, most
 * specific first, so a second one (planted with a narrower Path, or a Domain, by someone who can
 * set this site's cookies) would make "first" and "last" different people. Neither can be
 * trusted: a request carrying two is refused.
 */
export function sessionTokenFromCookieHeader(cfg: Config, header: string | null): string | undefined {
  const name = sessionCookieName(cfg);
  let token: string | undefined;
  for (const part of (header ?? "").split(";")) {
    const separator = part.indexOf("=");
    if (separator <= 0 || part.slice(0, separator).trim() !== name) continue;
    if (token !== undefined) throw new ApiError("duplicate_session_cookie", "The request carries two session cookies. Clear this site's cookies and sign in again.");
    token = part.slice(separator + 1).trim();
  }
  return token;
}

export const sessionTokenFromHeaders = (cfg: Config, headers: Headers) => sessionTokenFromCookieHeader(cfg, headers.get("cookie"));
