import type { ErrorCode } from "../errors";

// What each error code means and an example of its message, for the OpenAPI document. A
// Record over every code: a new code in lib/errors.ts does not compile until it is documented.

export const ERROR_CODE_DOCS: Record<ErrorCode, { meaning: string; example: string }> = {
  invalid_request: { meaning: "A field, parameter or the body is not what the operation takes; `fields` names each.", example: "sender is required" },
  invalid_json: { meaning: "The body is not valid JSON (or not UTF-8).", example: "The request body is not valid JSON." },
  duplicate_session_cookie: { meaning: "The request carries two session cookies (pages only).", example: "The request carries two session cookies. Clear this site's cookies and sign in again." },
  code_mismatch: { meaning: "On the init page, the box saying the code matches was not ticked, or the code typed does not match (pages only).", example: "That code does not match. Check the code in your terminal and type it again." },
  unauthorized: { meaning: "No credential was sent where one is needed.", example: "Send an access token as Authorization: Bearer <token>." },
  invalid_credentials: { meaning: "Wrong email or password (pages only).", example: "The email or password is not right." },
  invalid_secret: { meaning: "The init secret is malformed or is not this init's.", example: "The secret does not belong to this init." },
  invalid_token: { meaning: "The access token or link bearer is malformed, unknown, revoked or expired.", example: "The access token is not valid." },
  cross_site_request: { meaning: "A form was sent from another site (pages only).", example: "This form must be sent from this site's own page." },
  email_taken: { meaning: "An account with this email exists (pages only).", example: "An account with this email already exists." },
  link_conflict: { meaning: "Another access token already linked this project with this iv.", example: "Another client already uses this iv for this project. Choose a new random iv." },
  link_revoked: { meaning: "The link with this iv has been revoked.", example: "This link has been revoked. Choose a new random iv to link again." },
  init_not_pending: { meaning: "The init was already approved, denied or has expired (pages only).", example: "This request has expired. Start again in your terminal." },
  payload_too_large: { meaning: "The body is over the size limit.", example: "The request body must be at most 16384 bytes." },
  unsupported_media_type: { meaning: "The body is not sent as application/json.", example: "Send the body as JSON with Content-Type: application/json." },
  not_found: { meaning: "Nothing with this id exists (or the credential does not reach it).", example: "No init with this id exists." },
  method_not_allowed: { meaning: "The path exists but not with this method; `Allow` names the methods it takes.", example: "PUT is not allowed here; this resource allows POST, OPTIONS." },
  slow_down: { meaning: "Polled faster than `interval` (RFC 8628 §3.5): wait `interval` ms, as `Retry-After` says.", example: "Polling too fast: wait 5000 ms between requests." },
  rate_limited: { meaning: "Too many requests in the window; `Retry-After` says when to try again.", example: "Too many requests: at most 10 per 60 s. Try again in 42 s." },
  internal_error: { meaning: "Our fault; the detail is only in the server's log, under the request id.", example: "Something went wrong on our side. Please try again." },
  unavailable: { meaning: "The database does not answer; `Retry-After` says when to try again.", example: "The database does not answer." },
  server_busy: { meaning: "This process holds as many waiting requests as it may (`WAITING_PER_PROCESS`); poll the status instead, or try again after `Retry-After`.", example: "This server holds as many waiting requests as it can. Poll the status instead." },
  key_not_ready: { meaning: "The project's key pair is still being generated; try again after `Retry-After`.", example: "This project's key pair is still being generated. Try again shortly." },
  link_approval_pending: { meaning: "A browser-approved link is not approved yet: ask again later.", example: "Waiting for a person to approve this link in the browser, at /projects/{projectId}/link/{iv}. Ask again later." },
  link_denied: { meaning: "The person denied this browser-approved link.", example: "The person denied this link. Start again with a new random iv." },
  link_approval_expired: { meaning: "The browser approval expired before the client collected the link.", example: "The approval of this link expired before it was collected. Approve it again in the browser." },
};
