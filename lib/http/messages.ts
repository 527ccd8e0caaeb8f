import { ERROR_CODES, type ErrorCode } from "../errors";

// What a page says for the `?error=<code>` a form post sent it back with.
const MESSAGES: Partial<Record<ErrorCode, string>> = {
  invalid_request: "Some fields are missing or not valid. Check them and try again.",
  invalid_credentials: "The email or password is not right.",
  email_taken: "An account with this email already exists. Sign in instead.",
  code_mismatch: "The code was not confirmed or does not match. Check the code in your terminal.",
  init_not_pending: "This request can no longer be approved or denied.",
  unauthorized: "Sign in first.",
  duplicate_session_cookie: "Your browser sent two session cookies for this site. Clear this site's cookies, then sign in again.",
  cross_site_request: "That form was not sent from this site. Try again from this page.",
  not_found: "That project, request, token or client does not exist.",
  unsupported_media_type: "The form could not be read. Try again.",
  payload_too_large: "The form was too large.",
  rate_limited: "Too many attempts. Wait a few minutes and try again.",
  link_conflict: "This client is already linked under this iv. It must start again with a new one.",
};

export function formErrorMessage(code: string | string[] | undefined): string | null {
  if (typeof code !== "string") return null;
  const known = ERROR_CODES.find((candidate) => candidate === code);
  if (known === undefined) return null;
  return MESSAGES[known] ?? "Something went wrong. Please try again.";
}
