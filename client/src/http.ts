import { InitlinkError } from "./errors.js";
import type { ErrorBody } from "./types.js";

// One request to the service and the reading of its JSON answer; failures become InitlinkErrors.

export type Answer = { status: number; headers: Headers; body: unknown };

export type RequestOptions = { headers?: Record<string, string>; body?: string; signal?: AbortSignal };

export async function send(method: string, url: URL, { headers = {}, body, signal }: RequestOptions): Promise<Answer> {
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, { method, headers: { accept: "application/json", ...headers }, body, signal });
    text = await response.text();
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw new InitlinkError("network_error", `Could not reach ${url.origin}: ${reasonOf(error)}`, { cause: error });
  }
  try {
    return { status: response.status, headers: response.headers, body: JSON.parse(text) as unknown };
  } catch {
    throw new InitlinkError("invalid_response", `${url.origin} answered ${response.status} with something other than JSON.`, { status: response.status });
  }
}

/** Why a fetch failed: undici says only "fetch failed" and keeps the reason (e.g. ECONNREFUSED) in its cause. */
function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause instanceof Error ? error.cause.message : error.message;
}

/** `Retry-After` in seconds (delta-seconds only: the service never sends a date), or null. */
export function retryAfterSeconds(headers: Headers): number | null {
  const value = headers.get("retry-after");
  return value !== null && /^\d+$/.test(value.trim()) ? Number(value) : null;
}

/** The error an answer that is not a success carries. */
export function errorOf(answer: Answer): InitlinkError {
  const body = isRecord(answer.body) ? answer.body : {};
  const { code, error, fields } = body as Partial<ErrorBody>;
  if (typeof code !== "string") return new InitlinkError("invalid_response", `The server answered ${answer.status} without an error code.`, { status: answer.status });
  return new InitlinkError(code, typeof error === "string" ? error : code, {
    status: answer.status,
    fields: Array.isArray(fields) ? fields : [],
    retryAfterSeconds: retryAfterSeconds(answer.headers),
  });
}

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

type FieldType = "string" | "number" | "boolean" | "object" | "array";

/**
 * The answer's body as `T` once the fields it must have are there with their types; the rest of
 * the contract is the server's word (the README). Anything else is `invalid_response`.
 */
export function bodyAs<T>(answer: Answer, fields: Record<string, FieldType>, what: string): T {
  const body = answer.body;
  const fits = (value: unknown, type: FieldType) => (type === "object" ? isRecord(value) : type === "array" ? Array.isArray(value) : typeof value === type);
  const missing = isRecord(body) ? Object.entries(fields).filter(([name, type]) => !fits(body[name], type)) : [];
  if (!isRecord(body) || missing.length > 0) {
    const names = missing.map(([name]) => name).join(", ");
    throw new InitlinkError("invalid_response", `The server's ${what} is not as documented${names ? ` (${names})` : ""}.`, { status: answer.status });
  }
  return body as T;
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it is aborted. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
