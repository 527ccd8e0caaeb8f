import { emptyFormSchema, route } from "@/lib/http/route";
import { decideLinkApproval } from "@/lib/links/decide-link-approval";
import { linkApprovalPagePath } from "@/lib/links/link-approval-view";
import { linkApprovalParamsSchema } from "@/lib/links/schemas";

// POST /projects/{id}/link/{iv}/approve — the approve button of a link approved in the browser (docs/api.md, Compatibility)
export const POST = route(
  {
    auth: "session",
    sameOrigin: true,
    params: linkApprovalParamsSchema,
    body: { form: emptyFormSchema },
    answer: { redirect: true, back: ({ id, iv }, query) => linkApprovalPagePath(id, iv, query.get("metadata")) },
  },
  async ({ cfg, auth: user, params, query }) => {
    await decideLinkApproval(cfg, user.id, params.id, params.iv, "approved");
    return { to: linkApprovalPagePath(params.id, params.iv, query.get("metadata")) };
  },
);
