import { approveLinkOperation } from "@/lib/api/operations/decide-link-approval";
import { route } from "@/lib/api/route";
import { requireVerifiedEmail } from "@/lib/auth/email-verification";
import { decideLinkApproval } from "@/lib/links/decide-link-approval";
import { linkApprovalPagePath } from "@/lib/links/link-approval-view";
import { requireStepUp, stepUpSubject } from "@/lib/passkeys/step-up";

export const POST = route(approveLinkOperation, async ({ cfg, auth: user, params, body, query, origin }) => {
  // Before the step-up spends its challenge: a refused approval writes nothing.
  await requireVerifiedEmail(cfg, user.id);
  await requireStepUp(cfg, user.id, stepUpSubject({ kind: "link", projectId: params.id, iv: params.iv }), body.passkey_assertion);
  await decideLinkApproval(cfg, user.id, params.id, params.iv, "approved", origin);
  return { to: linkApprovalPagePath(params.id, params.iv, query.get("metadata")) };
});
