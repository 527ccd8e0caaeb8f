import { passkeySignInFormSchema } from "../../passkeys/schemas";
import { operation } from "../operation";
import { backToForm } from "../return-to";

// POST /auth/passkey — "Sign in with a passkey" on the sign-in page: the browser's assertion
// names the account (lib/passkeys/passkey-sign-in.ts); a refusal goes back to the sign-in page.
export const signInWithPasskeyOperation = operation({
  method: "POST",
  route: "/auth/passkey",
  auth: "none",
  sameOrigin: true,
  body: { form: passkeySignInFormSchema },
  answer: { redirect: true, back: (_params, query) => backToForm("/signin", query) },
  errors: ["cross_site_request", "unsupported_media_type", "payload_too_large", "invalid_request", "passkey_rejected"],
});
