import { projectParamsSchema, renameProjectSchema } from "../../projects/schemas";
import { operation } from "../operation";

// POST /projects/{id}/rename — the project page's Rename form
export const renameProjectOperation = operation({
  method: "POST",
  route: "/projects/[id]/rename",
  auth: "session",
  sameOrigin: true,
  params: projectParamsSchema,
  body: { form: renameProjectSchema },
  answer: { redirect: true, back: ({ id }) => `/projects/${encodeURIComponent(id)}` },
  errors: ["cross_site_request", "unauthorized", "duplicate_session_cookie", "unsupported_media_type", "payload_too_large", "invalid_request", "not_found", "team_role_required"],
});
