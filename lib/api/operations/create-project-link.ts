import { createLinkParamsSchema, linkAnswerSchema } from "../../links/schemas";
import { operation } from "../operation";

// POST /api/projects/{projectId}/link/{iv} — Create Project Link (SPEC §4.2). Failures carry
// success: false. Without Authorization, and LEGACY_LINK_APPROVAL on: a link approved in the browser.
export const createProjectLinkOperation = operation({
  method: "POST",
  route: "/api/projects/[projectId]/link/[iv]",
  auth: "linkRequest",
  dpop: true,
  params: createLinkParamsSchema,
  body: "ignored",
  answer: { status: 200 },
  errorEnvelope: { success: false },
  errors: [
    "link_approval_pending",
    "malformed_path",
    "invalid_request",
    "payload_too_large",
    "unauthorized",
    "invalid_token",
    "invalid_dpop_proof",
    "use_dpop_nonce",
    "link_denied",
    "not_found",
    "link_conflict",
    "link_revoked",
    "link_approval_expired",
    "rate_limited",
    "internal_error",
    "key_not_ready",
  ],
  doc: {
    operationId: "createProjectLink",
    summary: "Create Project Link",
    description:
      "With the project's access token (`Authorization: Bearer ilat_…`), links the client named by `iv` to the project: a bearer (a JWT) for GET /api/projects/{projectId}, and the project's public key with its fingerprint for the person to compare. Idempotent per token: the same token and iv get the same link with a fresh bearer. Every failure carries `success: false`. Without `Authorization`, and only when the server runs with LEGACY_LINK_APPROVAL on, the link is approved by a person in the browser: 202 `link_approval_pending` until then.",
    tag: "Project links",
    paramDescriptions: { projectId: "The project's id (the init status' `project_id`).", iv: "The client's random id for this link: 16 to 64 random bytes as hexadecimal." },
    answers: [{ status: 200, description: "The link.", json: { name: "ProjectLink", schema: linkAnswerSchema } }],
  },
});
