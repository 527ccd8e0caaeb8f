/**
 * A sign-in's return target, accepted only as a path on this site: "/init/abc" yes;
 * "https://evil.example", "//evil.example", "/\\evil.example" and anything odd fall back to "/".
 */
export function safeReturnTo(value: unknown): string {
  if (typeof value !== "string" || value.length > 512) return "/";
  if (!value.startsWith("/") || value.startsWith("//") || value.includes("\\")) return "/";
  if (/[\u0000-\u001f\u007f]/.test(value)) return "/";
  const parsed = new URL(value, "http://placeholder.invalid");
  if (parsed.origin !== "http://placeholder.invalid") return "/";
  return parsed.pathname + parsed.search;
}
