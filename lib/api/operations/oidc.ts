import type { OidcFlowOutcome } from "../../errors";
import { identityIdParamsSchema } from "../../identity/schemas";
import { clearedOidcFlowCookie } from "../oidc-cookie";
import { emptyFormSchema, operation } from "../operation";
import { backToForm, withReturnTo } from "../return-to";

// Signing in through the platform's OpenID Connect provider (lib/identity/). The buttons are
// links, not forms: a page's Content-Security-Policy allows forms to post to this site only
// (form-action 'self'), and a form's redirect to the provider would be held to that too. Each
// start is a GET from this site's own page (Sec-Fetch-Site: same-origin), which writes nothing
// and answers 303 to the provider's authorization endpoint with the sealed flow in a cookie.

const START_ERRORS = ["cross_site_request", "oidc_not_configured", "oidc_unavailable"] as const;

// GET /auth/oidc/start — "Sign in with <provider>" on the sign-in and sign-up pages and the init
// page; the way back (returnTo) goes with the flow. A refusal goes back to the sign-in page.
export const startOidcSignInOperation = operation({
  method: "GET",
  route: "/auth/oidc/start",
  auth: "none",
  sameOrigin: true,
  answer: { redirect: true, back: (_params, query) => backToForm("/signin", query) },
  errors: START_ERRORS,
  database: false,
});

// GET /auth/oidc/link — "Link <provider>" on /settings/identity: a flow bound to this session.
export const startOidcLinkOperation = operation({
  method: "GET",
  route: "/auth/oidc/link",
  auth: "session",
  sameOrigin: true,
  answer: { redirect: true, back: () => "/settings/identity" },
  errors: [...START_ERRORS, "unauthorized", "duplicate_session_cookie"],
});

/** Where a refused callback goes back to: the sign-in page keeping its way back, or the settings of a link. */
const backFromCallback = (outcome: OidcFlowOutcome | undefined) => (outcome?.purpose === "link" ? "/settings/identity" : withReturnTo("/signin", outcome?.returnTo ?? "/"));

// GET /auth/oidc/callback — the redirect URI: the provider sends the browser back here with its
// answer (a cross-site navigation: no same-origin check; the flow's state is the check). Success:
// signed in and on to the way back, or linked and back to the settings; the flow's cookie goes
// either way.
export const oidcCallbackOperation = operation({
  method: "GET",
  route: "/auth/oidc/callback",
  auth: "none",
  answer: { redirect: true, back: (_params, _query, error) => backFromCallback(error.data.oidcFlow), clear: clearedOidcFlowCookie },
  errors: [
    "duplicate_session_cookie",
    "unauthorized",
    "rate_limited",
    "oidc_not_configured",
    "oidc_state_mismatch",
    "oidc_replayed",
    "oidc_denied",
    "oidc_unavailable",
    "oidc_invalid_response",
    "oidc_no_email",
    "oidc_email_taken",
    "oidc_already_linked",
  ],
});

// POST /settings/identity/{id}/unlink — the Unlink button of a linked identity provider
export const unlinkIdentityOperation = operation({
  method: "POST",
  route: "/settings/identity/[id]/unlink",
  auth: "session",
  sameOrigin: true,
  params: identityIdParamsSchema,
  body: { form: emptyFormSchema },
  answer: { redirect: true, back: () => "/settings/identity" },
  errors: ["cross_site_request", "unauthorized", "duplicate_session_cookie", "unsupported_media_type", "payload_too_large", "not_found", "last_sign_in_method"],
});
