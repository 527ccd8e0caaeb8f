import type { z } from "zod";
import { linkApprovalPagePath } from "../../links/link-approval-view";
import { linkApprovalParamsSchema } from "../../links/schemas";
import { stepUpFieldsSchema } from "../../passkeys/schemas";
import type { ErrorCode } from "../../errors";
import { emptyFormSchema, operation, type Operation, type RedirectAnswer } from "../operation";

// POST /projects/{id}/link/{iv}/approve and …/deny — the buttons of a link approved in the
// browser (docs/api.md, Compatibility): both go back to the approval page. Approve carries a
// passkey assertion when the account's approvals need one (lib/passkeys/step-up.ts), and is taken
// only from the client's network (client_elsewhere).

type LinkApprovalParams = { id: string; iv: string };

const decision = <B>(route: `/${string}`, form: z.ZodType<B>, decisionErrors: readonly ErrorCode[]): Operation<"session", LinkApprovalParams, B, RedirectAnswer<LinkApprovalParams>, "POST"> =>
  operation({
    method: "POST",
    route,
    auth: "session",
    sameOrigin: true,
    params: linkApprovalParamsSchema,
    body: { form },
    answer: { redirect: true, back: ({ id, iv }, query) => linkApprovalPagePath(id, iv, query.get("metadata")) },
    errors: ["cross_site_request", "unauthorized", "duplicate_session_cookie", "unsupported_media_type", "payload_too_large", "invalid_request", "not_found", "link_conflict", "no_client_waiting", ...decisionErrors],
  });

export const approveLinkOperation = decision("/projects/[id]/link/[iv]/approve", stepUpFieldsSchema, ["client_elsewhere", "passkey_required", "passkey_rejected", "email_unverified"]);
export const denyLinkOperation = decision("/projects/[id]/link/[iv]/deny", emptyFormSchema, []);
