import { ApiError, logUnexpectedError } from "./errors";
import { errorResponse } from "./response";

type Handler<P> = (request: Request, params: P) => Promise<Response>;

/**
 * Wraps a route handler: awaits the route's params and turns every thrown error into a JSON
 * answer (with `errorEnvelope`'s fields, if given). An ApiError keeps its code; anything else is
 * our fault, logged, and answered with a generic 500 that carries no detail.
 */
export function apiRoute<P>(handler: Handler<P>, errorEnvelope: Record<string, unknown> = {}) {
  return async (request: Request, context: { params: Promise<P> }): Promise<Response> => {
    try {
      return await handler(request, await context.params);
    } catch (error) {
      if (error instanceof ApiError) return errorResponse(error, errorEnvelope);
      logUnexpectedError(request, error);
      return errorResponse(new ApiError("internal_error", "Something went wrong on our side. Please try again."), errorEnvelope);
    }
  };
}
