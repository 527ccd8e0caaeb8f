import { setPasskeyApprovalsOperation } from "@/lib/api/operations/set-passkey-approvals";
import { route } from "@/lib/api/route";
import { setApprovalsNeedPasskey } from "@/lib/passkeys/manage-passkeys";

export const POST = route(setPasskeyApprovalsOperation, async ({ cfg, auth: user, body }) => {
  await setApprovalsNeedPasskey(cfg, user.id, body.required === "on", body.passkey_assertion);
  return { to: `/settings/passkeys?approvals=${body.required}` };
});
