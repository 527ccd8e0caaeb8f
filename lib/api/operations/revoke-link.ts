import { revokeLinkParamsSchema } from "../../links/schemas";
import { emptyFormSchema, operation } from "../operation";

// POST /projects/{id}/links/{linkId}/revoke — the Revoke button of a linked client on the project page
export const revokeLinkOperation = operation({
  method: "POST",
  route: "/projects/[id]/links/[linkId]/revoke",
  auth: "session",
  sameOrigin: true,
  params: revokeLinkParamsSchema,
  body: { form: emptyFormSchema },
  answer: { redirect: true, back: ({ id }) => `/projects/${encodeURIComponent(id)}` },
  errors: ["cross_site_request", "unauthorized", "duplicate_session_cookie", "unsupported_media_type", "payload_too_large", "not_found", "team_role_required"],
});
