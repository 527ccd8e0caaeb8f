import { denyLinkOperation } from "@/lib/api/operations/decide-link-approval";
import { route } from "@/lib/api/route";
import { decideLinkApproval } from "@/lib/links/decide-link-approval";
import { linkApprovalPagePath } from "@/lib/links/link-approval-view";

export const POST = route(denyLinkOperation, async ({ cfg, auth: user, params, query, origin }) => {
  await decideLinkApproval(cfg, user.id, params.id, params.iv, "denied", origin);
  return { to: linkApprovalPagePath(params.id, params.iv, query.get("metadata")) };
});
