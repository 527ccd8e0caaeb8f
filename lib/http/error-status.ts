import type { ErrorCode } from "../errors";

// Every error code's HTTP status, in one place.
export const errorStatus: Record<ErrorCode, number> = {
  invalid_request: 400,
  invalid_json: 400,
  duplicate_session_cookie: 400,
  code_mismatch: 400,
  unauthorized: 401,
  invalid_credentials: 401,
  invalid_secret: 401,
  invalid_token: 401,
  cross_site_request: 403,
  not_found: 404,
  method_not_allowed: 405,
  email_taken: 409,
  link_conflict: 409,
  link_revoked: 409,
  init_not_pending: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  slow_down: 429,
  rate_limited: 429,
  internal_error: 500,
  unavailable: 503,
  key_not_ready: 503,
  server_busy: 503,
  // A browser-approved link (docs/api.md, Compatibility) not approved yet: accepted, not done. The
  // client asks again; every answer but 200 means "not yet" to it.
  link_approval_pending: 202,
  link_denied: 403,
  link_approval_expired: 410,
};
