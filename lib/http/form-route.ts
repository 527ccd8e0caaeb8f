import { config } from "../config";
import { ApiError, logUnexpectedError } from "./errors";
import { redirectResponse } from "./response";
import { assertSameOrigin } from "./same-origin";

type FormHandler<P> = (request: Request, params: P) => Promise<Response>;

/**
 * Wraps the POST handler of an HTML form: refuses cross-site posts, awaits params, and sends
 * any failure back to the form's page as `?error=<code>` (a 303, so a reload does not post
 * again). Unexpected errors are logged and shown as a generic failure.
 */
export function formRoute<P>(back: (params: P, query: URLSearchParams) => string, handler: FormHandler<P>) {
  return async (request: Request, context: { params: Promise<P> }): Promise<Response> => {
    const cfg = config();
    const params = await context.params;
    try {
      assertSameOrigin(cfg, request.headers);
      return await handler(request, params);
    } catch (error) {
      if (!(error instanceof ApiError)) logUnexpectedError(request, error);
      const code = error instanceof ApiError ? error.code : "internal_error";
      const target = new URL(back(params, new URL(request.url).searchParams), cfg.appUrl);
      target.searchParams.set("error", code);
      return redirectResponse(cfg.appUrl, target.pathname + target.search);
    }
  };
}
