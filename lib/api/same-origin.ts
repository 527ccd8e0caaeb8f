import type { Config } from "../config";
import { ApiError } from "../errors";

/**
 * Cross-site request check for form posts that change state: the browser's Origin must be the
 * service's own (APP_URL). Where a browser sends no Origin, or `Origin: null` (Chromium does for
 * posts from pages with Referrer-Policy: no-referrer), Sec-Fetch-Site, which no page can set,
 * must say same-origin. SameSite=Lax session cookies are the second line.
 */
export function assertSameOrigin(cfg: Config, headers: Headers): void {
  const origin = headers.get("origin");
  const fetchSite = headers.get("sec-fetch-site");
  const sameOrigin = origin === cfg.appUrl || ((origin === null || origin === "null") && fetchSite === "same-origin");
  if (!sameOrigin) throw new ApiError("cross_site_request", "This form must be sent from this site's own page.");
}
