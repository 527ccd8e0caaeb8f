import { initIdParamsSchema } from "../../init/schemas";
import { emptyFormSchema, operation } from "../operation";

// POST /init/{id}/deny — the deny form of the init page
export const denyInitOperation = operation({
  method: "POST",
  route: "/init/[id]/deny",
  auth: "session",
  sameOrigin: true,
  params: initIdParamsSchema,
  body: { form: emptyFormSchema },
  answer: { redirect: true, back: ({ id }) => `/init/${encodeURIComponent(id)}` },
  errors: ["cross_site_request", "unauthorized", "duplicate_session_cookie", "unsupported_media_type", "payload_too_large", "not_found", "init_not_pending"],
});
