import { z } from "zod";
import type { ErrorCode } from "../errors";

// The wire shape of every error answer (lib/api/response.ts, errorResponse), for the OpenAPI
// document (lib/api/openapi-document.ts) and its test.

const fieldProblemSchema = z.object({
  field: z.string().meta({ description: "The offending field's path, or `(body)` for the body as a whole." }),
  message: z.string(),
});

/**
 * An error body whose `code` is one of `codes`; `envelope` adds the fields a route's contract puts
 * on every failure. `fields` and `interval` are allowed only with the codes that carry them.
 */
export function errorBodySchema(codes: readonly ErrorCode[], envelope: z.ZodRawShape = {}) {
  return z.object({
    ...envelope,
    error: z.string().meta({ description: "What went wrong, for a person to read." }),
    code: z.enum(codes as [ErrorCode, ...ErrorCode[]]).meta({ description: "What went wrong, for a program: one of the error codes." }),
    ...(codes.includes("invalid_request") ? { fields: z.array(fieldProblemSchema).optional().meta({ description: "invalid_request: every field the request got wrong." }) } : {}),
    ...(codes.includes("slow_down") ? { interval: z.int().positive().optional().meta({ description: "slow_down: the interval to keep, in milliseconds." }) } : {}),
  });
}

/** An OAuth error answer (RFC 6749 §5.2) whose `error` is one of `errors`. */
export function oauthErrorBodySchema(errors: readonly string[]) {
  return z.object({
    error: z.enum(errors as [string, ...string[]]).meta({ description: "The OAuth error code (RFC 6749 §5.2, RFC 8628 §3.5)." }),
    error_description: z.string().meta({ description: "What went wrong, for a developer to read." }),
  });
}
