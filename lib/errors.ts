// The one error type domain code throws, named by its wire code. lib/http/error-status.ts maps
// each code to its HTTP status, in one table; nothing else in lib/ knows about HTTP.

export const ERROR_CODES = [
  "invalid_request",
  "invalid_json",
  "duplicate_session_cookie",
  "code_mismatch",
  "unauthorized",
  "invalid_credentials",
  "invalid_secret",
  "invalid_token",
  "cross_site_request",
  "email_taken",
  "link_conflict",
  "link_revoked",
  "init_not_pending",
  "payload_too_large",
  "unsupported_media_type",
  "not_found",
  "method_not_allowed",
  "slow_down",
  "rate_limited",
  "internal_error",
  "unavailable",
  "key_not_ready",
  "server_busy",
  "link_approval_pending",
  "link_denied",
  "link_approval_expired",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export type FieldProblem = { field: string; message: string };

export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: { fields?: FieldProblem[]; interval?: number; retryAfterSeconds?: number } = {},
  ) {
    super(message);
  }
}
