import { approveInitOperation } from "@/lib/api/operations/approve-init";
import { route } from "@/lib/api/route";
import { requireVerifiedEmail } from "@/lib/auth/email-verification";
import { approveInit } from "@/lib/init/approve-init";
import { isAuthorizingBrowser } from "@/lib/init/authorizing-browser";
import { requireStepUp, stepUpSubject } from "@/lib/passkeys/step-up";

export const POST = route(approveInitOperation, async ({ cfg, auth: user, params, body, origin, headers }) => {
  // Before the step-up spends its challenge: a refused approval writes nothing.
  await requireVerifiedEmail(cfg, user.id);
  await requireStepUp(cfg, user.id, stepUpSubject({ kind: "init", id: params.id }), body.passkey_assertion);
  await approveInit(cfg, user, params.id, body, origin, isAuthorizingBrowser(cfg, params.id, headers.get("cookie")));
  return { to: `/init/${params.id}` };
});
