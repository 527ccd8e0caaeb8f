import { addPasskeyFormSchema } from "../../passkeys/schemas";
import { operation } from "../operation";

// POST /settings/passkeys/add — the new-passkey form of the settings page: its name and the
// browser's answer to the registration options (lib/passkeys/register-passkey.ts).
export const addPasskeyOperation = operation({
  method: "POST",
  route: "/settings/passkeys/add",
  auth: "session",
  sameOrigin: true,
  body: { form: addPasskeyFormSchema },
  answer: { redirect: true, back: () => "/settings/passkeys" },
  errors: ["cross_site_request", "unauthorized", "duplicate_session_cookie", "unsupported_media_type", "payload_too_large", "invalid_request", "passkey_rejected", "passkey_limit_reached"],
});
