import { route } from "@/lib/http/route";
import { createProjectLink } from "@/lib/links/create-project-link";
import { createLinkParamsSchema } from "@/lib/links/schemas";

// POST /api/projects/{projectId}/link/{iv} — Create Project Link. Failures carry success: false.
export const POST = route(
  { auth: "accessToken", params: createLinkParamsSchema, body: "ignored", answer: { status: 200, errorEnvelope: { success: false } } },
  ({ cfg, auth: token, params, origin }) => createProjectLink(cfg, token, params.projectId, params.iv, origin),
);
