import { passwordChangeSchema, sessionIdParamsSchema, shareEmailSchema } from "../../auth/schemas";
import { emptyFormSchema, operation } from "../operation";

// The account's own settings forms (/settings/sessions, /settings/password, /settings/privacy):
// plain POSTs from this site's pages, each going back to its page with ?error=<code>.

const SESSION_FORM_ERRORS = ["cross_site_request", "unauthorized", "duplicate_session_cookie", "unsupported_media_type", "payload_too_large"] as const;

// POST /settings/sessions/{id}/signout — the Sign out button of one session in the list
export const signOutSessionOperation = operation({
  method: "POST",
  route: "/settings/sessions/[id]/signout",
  auth: "session",
  sameOrigin: true,
  params: sessionIdParamsSchema,
  body: { form: emptyFormSchema },
  answer: { redirect: true, back: () => "/settings/sessions" },
  errors: [...SESSION_FORM_ERRORS, "not_found"],
});

// POST /settings/sessions/signout-others — signs out every session but the browser's own
export const signOutOtherSessionsOperation = operation({
  method: "POST",
  route: "/settings/sessions/signout-others",
  auth: "session",
  sameOrigin: true,
  body: { form: emptyFormSchema },
  answer: { redirect: true, back: () => "/settings/sessions" },
  errors: SESSION_FORM_ERRORS,
});

// POST /settings/password/change — the password change form; every other session ends. The
// current password is checked under sign-in's limits (rate_limited). An account without a
// password (made by its identity provider) has none to change (no_password); with
// LOCAL_PASSWORDS=off no password is changed (passwords_off).
export const changePasswordOperation = operation({
  method: "POST",
  route: "/settings/password/change",
  auth: "session",
  sameOrigin: true,
  body: { form: passwordChangeSchema },
  answer: { redirect: true, back: () => "/settings/password" },
  errors: [...SESSION_FORM_ERRORS, "invalid_request", "rate_limited", "passwords_off", "wrong_password", "no_password"],
});

// POST /settings/privacy/save — whether clients the person approves learn their email
export const savePrivacyOperation = operation({
  method: "POST",
  route: "/settings/privacy/save",
  auth: "session",
  sameOrigin: true,
  body: { form: shareEmailSchema },
  answer: { redirect: true, back: () => "/settings/privacy" },
  errors: [...SESSION_FORM_ERRORS, "invalid_request"],
});
