import type { ErrorBody, ErrorCode } from "./types.js";

/**
 * Every failure the client reports: the service's `{error, code}` with the HTTP status, or one the
 * client found itself (`status` null for those that had no answer, such as `network_error`).
 */
export class InitlinkError extends Error {
  override readonly name = "InitlinkError";
  readonly code: ErrorCode;
  readonly status: number | null;
  /** Per field problems of an `invalid_request`. */
  readonly fields: { field: string; message: string }[];
  /** Seconds to wait before asking again (`Retry-After`), when the answer gave one. */
  readonly retryAfterSeconds: number | null;

  constructor(code: ErrorCode, message: string, options: { status?: number | null; fields?: ErrorBody["fields"]; retryAfterSeconds?: number | null; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = options.status ?? null;
    this.fields = options.fields ?? [];
    this.retryAfterSeconds = options.retryAfterSeconds ?? null;
  }
}

/** Narrows an unknown failure to an InitlinkError, with `code` if given. */
export function isInitlinkError(error: unknown, code?: ErrorCode): error is InitlinkError {
  return error instanceof InitlinkError && (code === undefined || error.code === code);
}
