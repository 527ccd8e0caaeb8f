import type { z } from "zod";
import { ApiError } from "../errors";

/** A 400 that names every field a zod schema refused. */
export function invalidRequest(error: z.ZodError): ApiError {
  const fields = error.issues.map((issue) => ({
    field: issue.path.length > 0 ? issue.path.join(".") : "(body)",
    message: issue.message,
  }));
  const summary = fields.map((problem) => (problem.field === "(body)" ? problem.message : `${problem.field} ${problem.message}`)).join("; ");
  return new ApiError("invalid_request", summary, { fields });
}

/** Parses input with a zod schema; a failure becomes a 400 that names every offending field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw invalidRequest(result.error);
}
