import { ApiError } from "../errors";
import { MAX_REQUEST_BODY_BYTES } from "../../server/body-limit.mjs";

/** The JSON limit is the whole service's: server.mjs refuses a larger declared body before Next reads it. */
export const MAX_JSON_BODY_BYTES = MAX_REQUEST_BODY_BYTES;

// application/json is the contract; clients that send JSON through fetch() without a type (or
// with fetch's default text/plain) are accepted too, as long as the body parses.
function acceptedContentType(header: string | null): boolean {
  if (header === null || header.trim() === "") return true;
  const mediaType = header.split(";")[0].trim().toLowerCase();
  return mediaType === "application/json" || mediaType === "text/plain" || /^application\/[a-z0-9.+-]+\+json$/.test(mediaType);
}

const tooLarge = (limit: number) => new ApiError("payload_too_large", `The request body must be at most ${limit} bytes.`);

/** Reads the body, stopping as soon as it passes the limit rather than reading it to the end. */
async function readLimited(request: Request, limit: number): Promise<Uint8Array> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > limit) throw tooLarge(limit);
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

export async function readJsonBody(request: Request): Promise<unknown> {
  if (!acceptedContentType(request.headers.get("content-type"))) {
    throw new ApiError("unsupported_media_type", "Send the body as JSON with Content-Type: application/json.");
  }
  const bytes = await readLimited(request, MAX_JSON_BODY_BYTES);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new ApiError("invalid_json", "The request body is not valid UTF-8.");
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiError("invalid_json", "The request body is not valid JSON.");
  }
}

/** For routes that expect no body: one within the JSON limit is read and ignored. */
export async function discardBody(request: Request): Promise<void> {
  await readLimited(request, MAX_JSON_BODY_BYTES);
}

export const MAX_FORM_BODY_BYTES = 8 * 1024;

/**
 * An HTML form's fields (application/x-www-form-urlencoded), read within a size limit. A field
 * sent twice keeps its first value.
 */
export async function readFormBody(request: Request): Promise<Record<string, string>> {
  const seen = new Set<string>();
  const first = (await formPairs(request)).filter(([name]) => !seen.has(name) && seen.add(name));
  // fromEntries defines own properties, so a field named "__proto__" stays a plain field.
  return Object.fromEntries(first);
}

/**
 * An OAuth request's parameters (RFC 6749 §3.1): one sent without a value is as if omitted, one
 * sent twice is refused (invalid_request), and the body must be valid UTF-8 (Appendix B).
 */
export async function readOAuthFormBody(request: Request): Promise<Record<string, string>> {
  const fields = new Map<string, string>();
  for (const [name, value] of await formPairs(request, true)) {
    if (value === "") continue;
    if (fields.has(name)) throw new ApiError("invalid_request", `${name} is sent more than once.`, { fields: [{ field: name, message: "is sent more than once" }] });
    fields.set(name, value);
  }
  return Object.fromEntries(fields);
}

async function formPairs(request: Request, strictUtf8 = false): Promise<[string, string][]> {
  const mediaType = (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (mediaType !== "application/x-www-form-urlencoded") {
    throw new ApiError("unsupported_media_type", "Send the form as application/x-www-form-urlencoded.");
  }
  const bytes = await readLimited(request, MAX_FORM_BODY_BYTES);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: strictUtf8 }).decode(bytes);
  } catch {
    throw new ApiError("invalid_request", "The body is not valid UTF-8.");
  }
  return [...new URLSearchParams(text)];
}
