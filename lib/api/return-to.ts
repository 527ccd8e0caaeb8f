/**
 * A sign-in's return target, accepted only as a path on this site: "/init/abc" yes;
 * "https://evil.example", "//evil.example", "/\\evil.example" and anything odd fall back to "/".
 * The check is made on the path as it will be sent, after URL parsing has removed dot segments
 * ("/.//evil.example" becomes "//evil.example", which a browser reads as another host).
 */
export function safeReturnTo(value: unknown): string {
  if (typeof value !== "string" || value.length > 512) return "/";
  if (!value.startsWith("/") || value.includes("\\")) return "/";
  if (/[\u0000-\u001f\u007f]/.test(value)) return "/";
  const parsed = new URL(value, "http://placeholder.invalid");
  if (parsed.origin !== "http://placeholder.invalid") return "/";
  const target = parsed.pathname + parsed.search;
  return target.startsWith("//") || target.includes("\\") ? "/" : target;
}

/** `page` (a form, or where it posts to) carrying the return target `returnTo`, a path on this site. */
export function withReturnTo(page: string, returnTo: string): string {
  return returnTo === "/" ? page : `${page}?returnTo=${encodeURIComponent(returnTo)}`;
}

/** Where a failed sign-in or sign-up sends the person back to, keeping the return target. */
export function backToForm(page: "/signin" | "/signup", query: URLSearchParams): string {
  return withReturnTo(page, safeReturnTo(query.get("returnTo")));
}
