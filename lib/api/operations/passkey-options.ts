import { registrationProofSchema, stepUpRequestSchema } from "../../passkeys/schemas";
import { operation } from "../operation";

// The WebAuthn options the pages' scripts fetch before they call the browser's passkey API
// (@simplewebauthn/browser): each hands out a challenge, kept server-side (lib/passkeys/challenges.ts).

// POST /settings/passkeys/options — adding a passkey on the settings page, after a fresh proof:
// an assertion of one of the account's passkeys made for it, or, without one, the current
// password (checked under sign-in's limits: rate_limited)
export const passkeyRegistrationOptionsOperation = operation({
  method: "POST",
  route: "/settings/passkeys/options",
  auth: "session",
  sameOrigin: true,
  body: { json: registrationProofSchema },
  answer: { status: 200 },
  errors: [
    "cross_site_request",
    "unauthorized",
    "duplicate_session_cookie",
    "unsupported_media_type",
    "payload_too_large",
    "invalid_json",
    "invalid_request",
    "password_required",
    "sign_in_again",
    "wrong_password",
    "passkey_required",
    "passkey_rejected",
    "rate_limited",
  ],
});

// POST /auth/passkey/options — "Sign in with a passkey" on the sign-in page; counts as a sign-in attempt of the address
export const passkeySignInOptionsOperation = operation({
  method: "POST",
  route: "/auth/passkey/options",
  auth: "none",
  sameOrigin: true,
  body: "ignored",
  answer: { status: 200 },
  errors: ["cross_site_request", "payload_too_large", "rate_limited"],
});

// POST /auth/passkey/step-up — confirming one approval (or turning the setting off) with a passkey: the challenge is bound to it
export const passkeyStepUpOptionsOperation = operation({
  method: "POST",
  route: "/auth/passkey/step-up",
  auth: "session",
  sameOrigin: true,
  body: { json: stepUpRequestSchema },
  answer: { status: 200 },
  errors: ["cross_site_request", "unauthorized", "duplicate_session_cookie", "unsupported_media_type", "payload_too_large", "invalid_json", "invalid_request", "rate_limited"],
});
