import { emailLinkFormSchema, passwordResetRequestSchema, passwordResetSchema } from "../../auth/schemas";
import { emptyFormSchema, operation } from "../operation";

// Mail that proves an address (lib/email/): "Forgot password?" and its link's form, confirming
// the account's email, and sending the confirmation again. Plain POSTs from this site's pages,
// each going back to its page with ?error=<code>. A link's token comes in the form's body, taken
// by the page from the link's fragment: never in a URL this site receives.

const FORM_ERRORS = ["cross_site_request", "unsupported_media_type", "payload_too_large", "invalid_request"] as const;
const LINK_ERRORS = ["email_link_invalid", "email_link_used", "email_link_voided", "email_link_expired"] as const;

// POST /auth/password-reset/request — the "Forgot password?" form: the same answer whether or not
// the email has an account (a link goes out only if it has one with a password).
export const requestPasswordResetOperation = operation({
  method: "POST",
  route: "/auth/password-reset/request",
  auth: "none",
  sameOrigin: true,
  body: { form: passwordResetRequestSchema },
  answer: { redirect: true, back: () => "/forgot-password" },
  errors: [...FORM_ERRORS, "rate_limited", "passwords_off", "mail_off"],
});

// POST /auth/password-reset — the reset page's form: the link's token and the new password;
// every session of the account ends.
export const resetPasswordOperation = operation({
  method: "POST",
  route: "/auth/password-reset",
  auth: "none",
  sameOrigin: true,
  body: { form: passwordResetSchema },
  answer: { redirect: true, back: () => "/reset-password" },
  errors: [...FORM_ERRORS, ...LINK_ERRORS, "rate_limited", "passwords_off"],
});

// POST /auth/verify-email — the confirmation page's button: the link's token.
export const verifyEmailOperation = operation({
  method: "POST",
  route: "/auth/verify-email",
  auth: "none",
  sameOrigin: true,
  body: { form: emailLinkFormSchema },
  answer: { redirect: true, back: () => "/verify-email" },
  errors: [...FORM_ERRORS, ...LINK_ERRORS],
});

// POST /settings/email/verify — Settings → Email's "Send a new link": the older link is void.
export const resendVerificationOperation = operation({
  method: "POST",
  route: "/settings/email/verify",
  auth: "session",
  sameOrigin: true,
  body: { form: emptyFormSchema },
  answer: { redirect: true, back: () => "/settings/email" },
  errors: ["cross_site_request", "unauthorized", "duplicate_session_cookie", "unsupported_media_type", "payload_too_large", "rate_limited", "mail_off", "already_verified"],
});
