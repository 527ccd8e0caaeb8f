import { reportApprovalFormSchema } from "../../approvals/schemas";
import { initIdParamsSchema } from "../../init/schemas";
import { operation } from "../operation";

// POST /activity/approvals/{id}/report — "This wasn't me" on an approval in the activity and on
// the project page, and "Undo" on the init page right after approving
export const reportApprovalOperation = operation({
  method: "POST",
  route: "/activity/approvals/[id]/report",
  auth: "session",
  sameOrigin: true,
  params: initIdParamsSchema,
  body: { form: reportApprovalFormSchema },
  answer: { redirect: true, back: () => "/activity" },
  errors: ["cross_site_request", "unauthorized", "duplicate_session_cookie", "unsupported_media_type", "payload_too_large", "invalid_request", "not_found"],
});
