import { z } from "zod";
import { approveFormSchema, initIdParamsSchema } from "../../init/schemas";
import { stepUpFieldsSchema } from "../../passkeys/schemas";
import { operation } from "../operation";

// POST /init/{id}/approve — the approve form of the init page: the project (or a new one's
// name), the access lifetime (invalid_request if not among the choices) and the code check
// (code_mismatch for a code not typed or wrong, not_confirmed for the box of a client that shows
// none); client_elsewhere for a client that shows no code, from another network than the browser's;
// other_browser for an authorization request approved in another browser than the one it opened in;
// rate_limited while the last allowed codes are being compared; too_many_new_projects and
// project_limit_reached for a new project past its limits; passkey_required and
// passkey_rejected when the account's approvals need a passkey.
export const approveInitOperation = operation({
  method: "POST",
  route: "/init/[id]/approve",
  auth: "session",
  sameOrigin: true,
  params: initIdParamsSchema,
  body: { form: z.intersection(approveFormSchema, stepUpFieldsSchema) },
  answer: { redirect: true, back: ({ id }) => `/init/${encodeURIComponent(id)}` },
  errors: [
    "cross_site_request",
    "unauthorized",
    "duplicate_session_cookie",
    "unsupported_media_type",
    "payload_too_large",
    "invalid_request",
    "not_found",
    "init_not_pending",
    "project_limit_reached",
    "client_elsewhere",
    "other_browser",
    "code_mismatch",
    "not_confirmed",
    "rate_limited",
    "too_many_new_projects",
    "passkey_required",
    "passkey_rejected",
    "email_unverified",
    "team_role_required",
  ],
});
