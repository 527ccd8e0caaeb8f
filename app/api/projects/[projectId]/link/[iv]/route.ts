import { otherMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";
import { createProjectLink } from "@/lib/links/create-project-link";
import { requestApprovedLink } from "@/lib/links/request-approved-link";
import { createLinkParamsSchema } from "@/lib/links/schemas";

// POST /api/projects/{projectId}/link/{iv} — Create Project Link. Failures carry success: false.
// Without Authorization, and LEGACY_LINK_APPROVAL on: a link approved in the browser.
export const POST = route(
  { auth: "linkRequest", params: createLinkParamsSchema, body: "ignored", answer: { status: 200, errorEnvelope: { success: false } } },
  ({ cfg, auth: token, params, origin }) =>
    token === null ? requestApprovedLink(cfg, params.projectId, params.iv, origin) : createProjectLink(cfg, token, params.projectId, params.iv, origin),
);

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"], { success: false });
