import { ApiError } from "../errors";
import { errorResponse } from "./response";
import type { Method as Served, Operation } from "./operation";
import type { RouteHandler } from "./route";

// RFC 9110 §15.5.6: a method a resource does not serve is a 405 whose Allow names those it
// does. Next answers one with an empty body and no Allow, unlike every other /api answer, so
// each API route exports these handlers for the methods it does not serve. OPTIONS
// is answered here too: Next's automatic one would list these handlers as served methods.

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];
/** The methods a route serving S does not: Next answers HEAD from GET itself. */
type Others<S extends Served> = Exclude<Method, S | (S extends "GET" ? "HEAD" : never)> | "OPTIONS";

/** Handlers for every method but the operation's; each failure carries the fields its contract puts on every failure. */
export function otherMethods<S extends Served>(op: Pick<Operation, "errorEnvelope" | "dialect"> & { method: S }): Record<Others<S>, RouteHandler> {
  const allowed = new Set<Method>(op.method === "GET" ? ["GET", "HEAD"] : [op.method]);
  const allow = [...METHODS.filter((method) => allowed.has(method)), "OPTIONS"].join(", ");
  const refuse: RouteHandler = async (request) => {
    const response = errorResponse(new ApiError("method_not_allowed", `${request.method} is not allowed here; this resource allows ${allow}.`), op.errorEnvelope, false, op.dialect);
    response.headers.set("Allow", allow);
    return response;
  };
  const handlers: Record<string, RouteHandler> = {
    OPTIONS: async () => new Response(null, { status: 204, headers: { Allow: allow, "Cache-Control": "no-store" } }),
  };
  for (const method of METHODS) if (!allowed.has(method)) handlers[method] = refuse;
  return handlers as Record<Others<S>, RouteHandler>;
}
