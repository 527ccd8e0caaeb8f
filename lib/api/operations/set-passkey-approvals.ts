import { passkeyApprovalsFormSchema } from "../../passkeys/schemas";
import { operation } from "../operation";

// POST /settings/passkeys/approvals — the switch "approvals need a passkey": on needs a passkey
// (no_passkey), off needs a step-up assertion for "settings" (passkey_required, passkey_rejected).
export const setPasskeyApprovalsOperation = operation({
  method: "POST",
  route: "/settings/passkeys/approvals",
  auth: "session",
  sameOrigin: true,
  body: { form: passkeyApprovalsFormSchema },
  answer: { redirect: true, back: () => "/settings/passkeys" },
  errors: ["cross_site_request", "unauthorized", "duplicate_session_cookie", "unsupported_media_type", "payload_too_large", "invalid_request", "no_passkey", "passkey_required", "passkey_rejected"],
});
