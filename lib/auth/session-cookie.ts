import type { Config } from "../config";
import { isHttpsOrigin } from "../runtime/request-context.mjs";

// The session cookie holds only a random token; the database keeps its SHA-256
// (lib/auth/sessions.ts). `__Host-` pins the cookie to this origin over https.

export function sessionCookieName(cfg: Config): string {
  return isHttpsOrigin(cfg.appUrl) ? "__Host-initlink_session" : "initlink_session";
}

function cookieAttributes(cfg: Config, maxAgeSeconds: number): string {
  const secure = isHttpsOrigin(cfg.appUrl) ? "; Secure" : "";
  return `Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure}`;
}

/** The Set-Cookie value that hands a browser its session token. */
export function sessionCookie(cfg: Config, token: string): string {
  return `${sessionCookieName(cfg)}=${token}; ${cookieAttributes(cfg, Math.floor(cfg.sessionLifetimeMs / 1000))}`;
}

export function clearedSessionCookie(cfg: Config): string {
  return `${sessionCookieName(cfg)}=; ${cookieAttributes(cfg, 0)}`;
}

/** The session token a request's Cookie header carries. */
export function sessionTokenFromHeaders(cfg: Config, headers: Headers): string | undefined {
  const name = sessionCookieName(cfg);
  for (const part of (headers.get("cookie") ?? "").split(";")) {
    const separator = part.indexOf("=");
    if (separator > 0 && part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return undefined;
}
