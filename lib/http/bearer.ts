import { ApiError } from "./errors";

/**
 * The credential of `Authorization: Bearer <credential>` (RFC 6750 §2.1), or null when the
 * header is absent. A header in any other form is refused rather than ignored.
 */
export function bearerCredential(headers: Headers, onInvalid: () => ApiError): string | null {
  const header = headers.get("authorization");
  if (header === null) return null;
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
  if (match === null) throw onInvalid();
  return match[1];
}
