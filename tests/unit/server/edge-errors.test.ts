import { describe, expect, it } from "vitest";
import { OPERATIONS } from "@/lib/api/operations";
import { errorResponse } from "@/lib/api/response";
import { ApiError } from "@/lib/errors";
import { edgeErrorBody } from "@/server/edge-errors.mjs";

// What the edge answers before any route runs (a malformed path, a body over the limit) has the
// shape the route itself gives its errors: every operation's declared dialect and envelope.
describe("the edge's error answers", () => {
  const codes = ["malformed_path", "payload_too_large"] as const;
  it.each(OPERATIONS.map((operation) => [`${operation.method} ${operation.route}`, operation] as const))("%s: as the route answers them", async (_name, operation) => {
    for (const code of codes) {
      const routeAnswer = await errorResponse(new ApiError(code, "too much"), operation.errorEnvelope, false, operation.dialect).json();
      expect(JSON.parse(edgeErrorBody(operation.route, code, "too much"))).toEqual(routeAnswer);
    }
  });
});
