import type { Config } from "../config";
import { FLOW_LIFETIME_SECONDS } from "../identity/flow";
import { isHttpsOrigin } from "../../server/request-context.mjs";
import { cookieAttributes } from "./session-cookie";

// The flow of a sign-in or link through the identity provider (lib/identity/flow.ts), sealed,
// kept by the browser from the button to the provider's redirect back: HttpOnly, SameSite=Lax (the
// redirect back is a top-level navigation from the provider's site, which Lax cookies go with),
// and `__Host-` over https, so that no other host of the domain can plant its own flow. The
// callback clears it whatever its outcome: a flow is used once.

export function oidcFlowCookieName(cfg: Config): string {
  return isHttpsOrigin(cfg.appUrl) ? "__Host-initlink_oidc" : "initlink_oidc";
}

/** The Set-Cookie value that keeps a flow for its lifetime. */
export const oidcFlowCookie = (cfg: Config, sealed: string): string => `${oidcFlowCookieName(cfg)}=${sealed}; ${cookieAttributes(cfg, "/", FLOW_LIFETIME_SECONDS)}`;

export const clearedOidcFlowCookie = (cfg: Config): string => `${oidcFlowCookieName(cfg)}=; ${cookieAttributes(cfg, "/", 0)}`;

/** The sealed flow a request's cookies carry; none when there is none, or more than one (which cannot all be this browser's own). */
export function oidcFlowFromHeaders(cfg: Config, headers: Headers): string | undefined {
  const name = oidcFlowCookieName(cfg);
  const values = (headers.get("cookie") ?? "")
    .split(";")
    .map((part) => part.trim())
    .filter((part) => part.startsWith(`${name}=`))
    .map((part) => part.slice(name.length + 1));
  return values.length === 1 ? values[0] : undefined;
}
