import { config } from "@/lib/config";
import { bearerCredential } from "@/lib/http/bearer";
import { ApiError } from "@/lib/http/errors";
import { apiRoute } from "@/lib/http/handler";
import { jsonResponse } from "@/lib/http/response";
import { readLinkedProject } from "@/lib/links/links";

const malformedAuthorization = () => new ApiError("invalid_token", "Send the link's bearer as Authorization: Bearer <JWT>.");

// GET /api/projects/{projectId} — the project, for a client holding one of its link bearers
export const GET = apiRoute<{ projectId: string }>(async (request, { projectId }) => {
  const cfg = config();
  return jsonResponse(200, await readLinkedProject(cfg, bearerCredential(request.headers, malformedAuthorization), projectId));
});
