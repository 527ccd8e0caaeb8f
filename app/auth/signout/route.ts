import { clearedSessionCookie, endSession, sessionTokenFromHeaders } from "@/lib/auth/sessions";
import { config } from "@/lib/config";
import { formRoute } from "@/lib/http/form-route";
import { redirectResponse } from "@/lib/http/response";

// POST /auth/signout — deletes the session and its cookie
export const POST = formRoute<object>(
  () => "/",
  async (request) => {
    const cfg = config();
    await endSession(sessionTokenFromHeaders(cfg, request.headers));
    return redirectResponse(cfg.appUrl, "/", clearedSessionCookie(cfg));
  },
);
