import { z } from "zod";
import { config } from "@/lib/config";
import { discardBody } from "@/lib/http/body";
import { bearerCredential } from "@/lib/http/bearer";
import { ApiError } from "@/lib/http/errors";
import { apiRoute } from "@/lib/http/handler";
import { jsonResponse } from "@/lib/http/response";
import { parseInput } from "@/lib/http/validate";
import { createProjectLink, ivSchema } from "@/lib/links/links";
import { authenticateAccessToken } from "@/lib/tokens/access-tokens";

const pathSchema = z.object({ iv: ivSchema });
const malformedAuthorization = () => new ApiError("invalid_token", "Send the access token as Authorization: Bearer <token>.");

// POST /api/projects/{projectId}/link/{iv} — Create Project Link. Failures carry success: false.
export const POST = apiRoute<{ projectId: string; iv: string }>(
  async (request, params) => {
    const cfg = config();
    const token = await authenticateAccessToken(bearerCredential(request.headers, malformedAuthorization));
    const { iv } = parseInput(pathSchema, { iv: params.iv });
    await discardBody(request);
    const link = await createProjectLink(cfg, token, params.projectId, iv, request.headers.get("user-agent"));
    return jsonResponse(200, link);
  },
  { success: false },
);
