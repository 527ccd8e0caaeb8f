// The one error type domain code throws, and the one table that maps its codes to HTTP.

export const errorStatus = {
  invalid_request: 400,
  invalid_json: 400,
  code_mismatch: 400,
  unauthorized: 401,
  invalid_credentials: 401,
  invalid_secret: 401,
  invalid_token: 401,
  cross_site_request: 403,
  email_taken: 409,
  link_conflict: 409,
  link_revoked: 409,
  init_not_pending: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  not_found: 404,
  slow_down: 429,
  rate_limited: 429,
  internal_error: 500,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export type FieldProblem = { field: string; message: string };

/** An error that is our fault: logged in full on the server, never shown to the client. */
export function logUnexpectedError(request: Request, error: unknown): void {
  const line = { level: "error", msg: "unhandled error", request_id: request.headers.get("x-request-id"), route: new URL(request.url).pathname, error: String(error) };
  console.error(JSON.stringify(line));
}

export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: { fields?: FieldProblem[]; interval?: number; retryAfterSeconds?: number } = {},
  ) {
    super(message);
  }

  get status(): number {
    return errorStatus[this.code];
  }
}
