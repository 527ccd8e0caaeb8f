import { ApiError } from "./errors";

// Answers of the API are never cached: they carry state that changes and, later, secrets.
const API_HEADERS = { "Cache-Control": "no-store" };

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { ...API_HEADERS, ...headers } });
}

export function errorResponse(error: ApiError): Response {
  const { fields, interval, retryAfterSeconds } = error.extra;
  const headers: Record<string, string> = {};
  if (retryAfterSeconds !== undefined) headers["Retry-After"] = String(retryAfterSeconds);
  return jsonResponse(
    error.status,
    {
      error: error.message,
      code: error.code,
      ...(fields ? { fields } : {}),
      ...(interval !== undefined ? { interval } : {}),
    },
    headers,
  );
}
