import type { ErrorCode } from "../../errors";
import { linkApprovalPagePath } from "../../links/link-approval-view";
import { linkApprovalParamsSchema } from "../../links/schemas";
import { emptyFormSchema, operation, type Operation, type RedirectAnswer } from "../operation";

// POST /projects/{id}/link/{iv}/approve and …/deny — the buttons of a link approved in the
// browser (docs/api.md, Compatibility): both go back to the approval page. Approve only from the
// client's network (client_elsewhere).

type LinkApprovalParams = { id: string; iv: string };

const decision = (route: `/${string}`, onlyHere: ErrorCode[] = []): Operation<"session", LinkApprovalParams, Record<string, never>, RedirectAnswer<LinkApprovalParams>, "POST"> =>
  operation({
    method: "POST",
    route,
    auth: "session",
    sameOrigin: true,
    params: linkApprovalParamsSchema,
    body: { form: emptyFormSchema },
    answer: { redirect: true, back: ({ id, iv }, query) => linkApprovalPagePath(id, iv, query.get("metadata")) },
    errors: ["cross_site_request", "unauthorized", "duplicate_session_cookie", "unsupported_media_type", "payload_too_large", "invalid_request", "not_found", "link_conflict", "no_client_waiting", ...onlyHere],
  });

export const approveLinkOperation = decision("/projects/[id]/link/[iv]/approve", ["client_elsewhere"]);
export const denyLinkOperation = decision("/projects/[id]/link/[iv]/deny");
