// Every error the service answers, once: its HTTP status, what it means (the OpenAPI document
// and /docs) with an example of its message, and what a page says for a form sent back with
// ?error=<code>. Domain code throws ApiError by code with the data the
// client needs (the interval to keep, when to try again); lib/api turns it into an answer.
// Adding a code is one entry here, plus its test.
//
// Two dialects answer from this one catalogue: the service's own (`{error, code}` at the code's
// status) and OAuth's, on the OAuth endpoints (RFC 6749 §5.2: `{error, error_description}`).
// In the OAuth dialect a code answers as its `oauth` entry says, else as itself at its own status.
import { MALFORMED_PATH_MESSAGE } from "../server/malformed-path.mjs";

type ErrorEntry = {
  status: number;
  /** What the code means, for the API reference. */
  meaning: string;
  /** An example of its message, for the API reference. */
  example: string;
  /** What a page shows for it; a code without one shows the generic line. */
  page?: string;
  /** In the OAuth dialect: the RFC's `error` it answers as, and the status, where either differs from the code's own. */
  oauth?: { error?: string; status?: number };
};

export const ERRORS = {
  invalid_request: {
    status: 400,
    meaning: "A field, parameter or the body is not what the operation takes; `fields` names each.",
    example: "sender is required",
    page: "Some fields are missing or not valid. Check them and try again.",
  },
  malformed_path: {
    status: 400,
    meaning: "The path has a percent-escape that is not valid UTF-8 (`%E0%A4%A`, `%zz`); answered before any operation runs.",
    example: MALFORMED_PATH_MESSAGE,
    oauth: { error: "invalid_request" },
  },
  invalid_json: { status: 400, meaning: "The body is not valid JSON (or not UTF-8).", example: "The request body is not valid JSON.", oauth: { error: "invalid_request" } },
  duplicate_session_cookie: {
    status: 400,
    meaning: "The request carries two session cookies (pages only).",
    example: "The request carries two session cookies. Clear this site's cookies and sign in again.",
    page: "Your browser sent two session cookies for this site. Clear this site's cookies, then sign in again.",
  },
  code_mismatch: {
    status: 400,
    meaning: "On the init page, where the client shows a code: no code was typed, or the code typed does not match (pages only).",
    example: "That code does not match. Check the code in your terminal and type it again.",
    page: "That code does not match, or none was typed. Type the code your terminal shows.",
  },
  not_confirmed: {
    status: 400,
    meaning: "On the init page, where the client shows no code: the box saying the person started this request was not ticked (pages only).",
    example: "Confirm that you started this request yourself.",
    page: "Tick the box to confirm that you started this request yourself. If you did not, deny it.",
  },
  // Remote phishing: a client that shows no code, approved from another network (lib/init/code-check-mode.ts).
  other_browser: {
    status: 403,
    meaning:
      "On the init page of an authorization request (the code flow): the browser is not the one the application opened it in, and its answer would go to this browser's machine, not the application's (pages only).",
    example: "This request was opened in another browser: approve it in the browser the application opened, or deny it here.",
    page: "This request was opened in another browser. Approve it in the browser the application opened on your computer; if you did not start it, deny it.",
  },
  client_elsewhere: {
    status: 403,
    meaning:
      "On the init page: the client shows no code and its request came from another network than the approving browser's, so nothing shows that this person started it (pages only).",
    example: "This client shows no code, and it is not on your network. Open the link on its network, or start again with a client that shows a code.",
    page: "This request came from another network, and its client shows no code to check. Open this link in a browser on the network of the machine where you ran the command, or start again with a client that shows a code. If you did not start it, deny it.",
  },
  unauthorized: {
    status: 401,
    meaning: "No credential was sent where one is needed.",
    example: "Send an access token as Authorization: Bearer <token>.",
    page: "Sign in first.",
    // RFC 7662 §2.3 → RFC 6750 §3: the introspection endpoint's caller sends no usable bearer.
    oauth: { error: "invalid_token" },
  },
  invalid_credentials: {
    status: 401,
    meaning: "Wrong email or password (pages only).",
    example: "The email or password is not right.",
    page: "The email or password is not right.",
  },
  wrong_password: {
    status: 401,
    meaning: "On the password change form, or adding a passkey to an account without one, the current password is not right (pages only).",
    example: "The current password is not right.",
    page: "The current password is not right. Nothing was changed.",
  },
  // RFC 6749 §5.2: a confidential client (a resource server at introspection) that failed to
  // authenticate answers invalid_client with 401 and the scheme it tried (Basic).
  client_authentication_failed: {
    status: 401,
    meaning:
      "RFC 6749 §5.2 (`invalid_client`): the resource-server credential of `Authorization: Basic` is unknown, revoked or sent with another secret, or the header is not `Basic` and the base64 of the form-encoded `client_id:client_secret` (RFC 6749 §2.3.1); `WWW-Authenticate: Basic` names the scheme.",
    example: "The resource-server credential is not valid: check its client_id and secret.",
    oauth: { error: "invalid_client" },
  },
  // Signing in through the platform's OpenID Connect provider (lib/identity/): the provider's redirect back.
  oidc_state_mismatch: {
    status: 400,
    meaning:
      "The provider's redirect back does not belong to a sign-in started in this browser: none is under way here (none started, it is more than 10 minutes old, or another started since), or its `state` is not this one's (a forged or swapped link, as in login CSRF) (pages only).",
    example: "This answer of the identity provider does not belong to the sign-in started in this browser.",
    page: "This sign-in did not start in this browser, or it took too long. Nothing was changed. Start again.",
  },
  oidc_no_email: {
    status: 400,
    meaning: "A first sign-in through the provider: neither its ID token nor its UserInfo gave an email address, which a new account needs (pages only).",
    example: "Your identity provider did not share an email address, which a new account needs.",
    page: "Your identity provider did not share your email address, which a new account here needs. Ask its administrator to release the email claim, or sign up with a password.",
  },
  password_required: {
    status: 401,
    meaning: "Adding a passkey to an account without one needs the account's current password (pages only).",
    example: "Type your current password to add a passkey.",
    page: "Type your current password to add a passkey.",
  },
  sign_in_again: {
    status: 401,
    meaning: "Adding a first passkey to an account without a password (it signs in through its identity provider) needs a sign-in in the last 10 minutes (pages only).",
    example: "Sign in again through your identity provider to add a passkey.",
    page: "Sign out and sign in again through your identity provider, then add the passkey within 10 minutes.",
  },
  invalid_secret: { status: 401, meaning: "The init secret is malformed or is not this init's.", example: "The secret does not belong to this init." },
  invalid_token: {
    status: 401,
    meaning: "The access token or link bearer is malformed, unknown, revoked or expired.",
    example: "The access token is not valid.",
  },
  // RFC 9449 §7.1 at the API (401 with a DPoP challenge), §5 at the OAuth endpoints (400).
  invalid_dpop_proof: {
    status: 401,
    meaning:
      "RFC 9449: the DPoP proof is missing where the token or code is bound to a key, malformed, signed by another key, made for another method, URL or access token, too old, or used before.",
    example: "This DPoP proof was used before: make a new one for each request.",
    oauth: { status: 400 },
  },
  use_dpop_nonce: {
    status: 401,
    meaning: "RFC 9449 §8–9: the DPoP proof must carry the server's current nonce: send a new proof with the one in this answer's `DPoP-Nonce` header.",
    example: "Send a new DPoP proof with the nonce of the DPoP-Nonce header.",
    oauth: { status: 400 },
  },
  oidc_denied: {
    status: 403,
    meaning: "The sign-in was cancelled or refused at the identity provider: it answered with an error (`access_denied`, or another of OpenID Connect Core §3.1.2.6) instead of a code (pages only).",
    example: "Your identity provider answered access_denied.",
    page: "The sign-in was cancelled or refused at your identity provider. Nothing was changed. Try again, or sign in another way.",
  },
  cross_site_request: {
    status: 403,
    meaning: "A form was sent from another site (pages only).",
    example: "This form must be sent from this site's own page.",
    page: "That form was not sent from this site. Try again from this page.",
  },
  // A browser-approved link (docs/api.md, Compatibility) denied by the person.
  link_denied: { status: 403, meaning: "The person denied this browser-approved link.", example: "The person denied this link. Start again with a new random iv." },
  // Passkeys (lib/passkeys/): an answer that does not verify, and an approval made without one on an account that needs it.
  passkey_rejected: {
    status: 403,
    meaning:
      "The passkey's answer does not verify: its challenge is unknown, used, expired or was handed out for something else, it was made on another origin or RP ID, without user verification, by a passkey not registered to the account, or its signature or counter is wrong (pages only).",
    example: "The passkey's answer was refused: Unexpected authentication response origin \"https://phish.example\", expected \"https://initlink.example\"",
    page: "Your passkey's answer could not be verified. Try again, on this site, with a passkey registered to your account.",
  },
  passkey_required: {
    status: 403,
    meaning:
      "The account's approvals need a passkey, and the approval came without a passkey assertion made for it; or a passkey is being added to an account that has one, without an assertion of one of them made for adding it (pages only).",
    example: "Your approvals need a passkey: confirm this approval with one of your passkeys.",
    page: "Your account's approvals need a passkey. Approve again and confirm with one of your passkeys when your browser asks.",
  },
  not_found: {
    status: 404,
    meaning: "Nothing with this id exists (or the credential does not reach it).",
    example: "No init with this id exists.",
    page: "That project, request, token or client does not exist.",
  },
  oidc_not_configured: {
    status: 404,
    meaning: "Signing in through an identity provider is not set up on this service (`OIDC_ISSUER`) (pages only).",
    example: "No identity provider is set up on this service.",
    page: "Signing in with an identity provider is not set up here. Sign in with your email and password, or a passkey.",
  },
  unknown_user_code: {
    status: 404,
    meaning: "No waiting request has the code typed on /device (pages only); wrong codes are limited per account and address.",
    example: "No request is waiting for that code.",
    page: "No request is waiting for that code. Check the code your terminal shows; it works until the request expires.",
  },
  method_not_allowed: {
    status: 405,
    meaning: "The path exists but not with this method; `Allow` names the methods it takes.",
    example: "PUT is not allowed here; this resource allows POST, OPTIONS.",
  },
  passwords_off: {
    status: 403,
    meaning: "Passwords are turned off on this service (`LOCAL_PASSWORDS=off`): sign-in, sign-up and password changes with one are refused (pages only).",
    example: "Passwords are not used on this service: sign in through your identity provider or with a passkey.",
    page: "Passwords are not used here. Sign in through your identity provider, or with a passkey.",
  },
  sign_up_closed: {
    status: 403,
    meaning:
      "Making an account with a password is closed on this service: `SIGN_UP=off` (accounts come from its identity provider), or `SIGN_UP=invite` and the form carried no open team invitation that its email may accept (pages only).",
    example: "Sign-up is closed on this service: accounts come from its identity provider.",
    page: "Sign-up with a password is closed here. Sign in through your identity provider, or, if a team invited you, open its invitation link in this tab and sign up with the address it was sent to.",
  },
  email_link_invalid: {
    status: 400,
    meaning: "The token of a password-reset or confirmation link is not one this service sent for that form (pages only).",
    example: "This link is not valid. Open the latest link we sent, or ask for a new one.",
    page: "This link is not valid. Open the latest link we sent you, or ask for a new one.",
  },
  email_link_used: {
    status: 410,
    meaning: "The link was used already: each works once (pages only).",
    example: "This link was already used: each link works once.",
    page: "This link was already used: each link works once. Ask for a new one if you need it.",
  },
  email_link_voided: {
    status: 410,
    meaning: "A newer link of the same kind was sent since: only the latest works (pages only).",
    example: "A newer link was sent since this one: only the latest works.",
    page: "A newer link was sent since this one: only the latest works. Open the most recent mail.",
  },
  email_link_expired: {
    status: 410,
    meaning: "The link's time ran out: 30 minutes for a password reset, 24 hours for a confirmation (pages only).",
    example: "This link has expired. Ask for a new one.",
    page: "This link has expired. Ask for a new one.",
  },
  // Teams (lib/teams/): an invitation's single-use link, and the rules of roles.
  invitation_invalid: {
    status: 400,
    meaning: "The token of a team invitation is not one this service made (pages only).",
    example: "This invitation is not valid. Ask the team's admin for a new one.",
    page: "This invitation is not valid. Ask the team's admin for a new one.",
  },
  invitation_used: {
    status: 410,
    meaning: "The invitation was accepted already: each works once (pages only).",
    example: "This invitation was accepted already: each works once.",
    page: "This invitation was accepted already: each works once. Ask the team's admin for a new one if you need it.",
  },
  invitation_revoked: {
    status: 410,
    meaning: "An admin of the team revoked the invitation (pages only).",
    example: "This invitation was revoked by an admin of the team.",
    page: "This invitation was revoked by an admin of the team. Ask them for a new one.",
  },
  invitation_expired: {
    status: 410,
    meaning: "The invitation's 7 days are over (pages only).",
    example: "This invitation has expired. Ask the team's admin for a new one.",
    page: "This invitation has expired: invitations work for 7 days. Ask the team's admin for a new one.",
  },
  invitation_email_mismatch: {
    status: 403,
    meaning: "The invitation names another email than the signed-in account's, and the admin did not allow any email (pages only).",
    example: "This invitation is for another email address. Sign in with that address's account.",
    page: "This invitation is for another email address. Sign out, then sign in or sign up with the address it was sent to.",
  },
  team_role_required: {
    status: 403,
    meaning: "The person's role in the team does not allow this; `docs/teams.md` lists who may do what (pages only).",
    example: "Only the team's owners and admins may do this.",
    page: "Your role in this team does not allow this. Ask one of its admins or owners.",
  },
  webhook_address_refused: {
    status: 400,
    meaning: "The endpoint's host resolves to a private, loopback, link-local or special-purpose address, which initlink does not send to unless OUTBOUND_ALLOW_PRIVATE=true (pages only).",
    example: "hooks.internal resolves to a private or special-purpose address, which initlink does not send to",
    page: "That URL's host is on a private or special-purpose network, which initlink does not send events to. Use a public https:// address.",
  },
  webhook_endpoint_limit: {
    status: 409,
    meaning: "The account or team has as many webhook endpoints as it may (20): delete one first (pages only).",
    example: "An account or a team has at most 20 webhook endpoints: delete one first.",
    page: "There are as many endpoints here as there may be (20). Delete one first.",
  },
  last_owner: {
    status: 409,
    meaning: "The change would leave the team without an owner: make someone else an owner first (pages only).",
    example: "A team keeps at least one owner: make another member an owner first.",
    page: "A team keeps at least one owner. Make another member an owner first.",
  },
  already_member: {
    status: 409,
    meaning: "The account is a member of the team already (pages only).",
    example: "You are a member of this team already.",
    page: "That account is a member of this team already.",
  },
  team_has_projects: {
    status: 409,
    meaning: "A team that has projects cannot be deleted: their links and keys would go with it (pages only).",
    example: "This team still has projects: a team with projects cannot be deleted.",
    page: "This team still has projects, and deleting it would cut off every client linked to them. It can be deleted once it has none.",
  },
  already_verified: {
    status: 409,
    meaning: "The account's email is confirmed already: no new link is sent (pages only).",
    example: "Your email address is confirmed already.",
    page: "Your email address is confirmed already.",
  },
  mail_off: {
    status: 404,
    meaning: "This service sends no email (`SMTP_URL` is not set): there is no password reset or confirmation by mail (pages only).",
    example: "This service sends no email: ask its administrators to reset your password.",
    page: "This service sends no email, so a password cannot be reset by mail here. Ask its administrators.",
  },
  email_unverified: {
    status: 403,
    meaning: "This service approves only from accounts whose email is confirmed (`EMAIL_VERIFICATION=required`): follow the link mailed to the account, or send a new one from Settings → Email (pages only).",
    example: "Confirm your email address before you approve: we sent you a link.",
    page: "Confirm your email address before you approve: open the link we mailed you, or send a new one from Settings → Email.",
  },
  email_taken: {
    status: 409,
    meaning: "An account with this email exists (pages only).",
    example: "An account with this email already exists. Sign in instead.",
    page: "An account with this email already exists. Sign in instead.",
  },
  oidc_email_taken: {
    status: 409,
    meaning:
      "A first sign-in through the provider: an account here already has the provider's email. It is not linked by email: its owner signs in to it and links the provider from the settings (pages only).",
    example: "An account with this email already exists. Sign in to it, then link your identity provider from its settings.",
    page: "An account with your email already exists here, so none was made. Sign in to it with its password or passkey, then link your identity provider under Settings → Identity provider.",
  },
  oidc_already_linked: {
    status: 409,
    meaning: "Linking: this identity at the provider is already linked to another account here, or this account already has an identity of that provider (pages only).",
    example: "This identity at the provider is already linked to another account.",
    page: "That identity at your provider is already linked to another account here, or yours already has one from this provider. Nothing was changed.",
  },
  oidc_replayed: {
    status: 409,
    meaning: "The provider's redirect back was used before: each works once (pages only).",
    example: "This answer of the identity provider was used before.",
    page: "This sign-in was already completed, and its link works once. Start again to sign in.",
  },
  last_sign_in_method: {
    status: 409,
    meaning: "Unlinking the identity provider, or removing a passkey, would leave the account no way to sign in: it has no password, and no other passkey or provider (pages only).",
    example: "This is your last way to sign in. Add a passkey first.",
    page: "That is your last way to sign in to this account. Add a passkey (or link your identity provider) first.",
  },
  no_password: {
    status: 409,
    meaning: "The password change form, on an account that has no password: it signs in through its identity provider or a passkey (pages only).",
    example: "This account has no password to change.",
    page: "Your account has no password: it signs in with your identity provider or a passkey.",
  },
  link_conflict: {
    status: 409,
    meaning: "Another access token already linked this project with this iv.",
    example: "Another client already uses this iv for this project. Choose a new random iv.",
    page: "This client is already linked under this iv. It must start again with a new one.",
  },
  // A browser approval is given only while its client waits (Compatibility).
  no_client_waiting: {
    status: 409,
    meaning: "On the link approval page: no client has asked for this link within the last minute, so there is nothing to decide (pages only).",
    example: "No client is asking for this link right now. Start the link in your terminal, then decide while it waits.",
    page: "No client is asking for this link right now. Start the link in your terminal, then approve it here while it waits.",
  },
  no_passkey: {
    status: 409,
    meaning: "Approvals cannot need a passkey while the account has none (pages only).",
    example: "Add a passkey before approvals can need one.",
    page: "Add a passkey first: approvals can only need a passkey once you have one.",
  },
  passkey_limit_reached: {
    status: 409,
    meaning: "The account already has as many passkeys as it may (20; pages only).",
    example: "An account may have at most 20 passkeys. Remove one first.",
    page: "You have as many passkeys as an account may. Remove one you no longer use first.",
  },
  last_passkey: {
    status: 409,
    meaning: "The account's approvals need a passkey, and this is its last one (pages only).",
    example: "This is your last passkey and your approvals need one. Turn that off first, or add another passkey.",
    page: "This is your last passkey and your approvals need one. Add another passkey, or turn off “Approvals need a passkey” first.",
  },
  link_revoked: { status: 409, meaning: "The link with this iv has been revoked.", example: "This link has been revoked. Choose a new random iv to link again." },
  init_not_pending: {
    status: 409,
    meaning: "The init was already approved, denied or has expired (pages only).",
    example: "This request has expired. Start again in your terminal.",
    page: "This request can no longer be approved or denied.",
  },
  project_limit_reached: {
    status: 409,
    meaning:
      "Approving into a new project: the account holds `PROJECTS_PER_ACCOUNT` projects, the most it may. Approving into one of its projects still works (pages only).",
    example: "Your account holds 100 projects, the most it may. Approve into one of your projects instead.",
    page: "Your account holds as many projects as it may, so this request cannot make a new one. Approve it into one of your projects below.",
  },
  // The browser approval expired before the client collected the link (Compatibility).
  link_approval_expired: {
    status: 410,
    meaning: "The browser approval expired before the client collected the link.",
    example: "The approval of this link expired before it was collected. Approve it again in the browser.",
  },
  payload_too_large: {
    status: 413,
    meaning: "The body is over the size limit.",
    example: "The request body must be at most 16384 bytes.",
    page: "The form was too large.",
    oauth: { error: "invalid_request" },
  },
  unsupported_media_type: {
    status: 415,
    meaning: "The body is not sent as application/json.",
    example: "Send the body as JSON with Content-Type: application/json.",
    page: "The form could not be read. Try again.",
    // RFC 6749 §3.2, RFC 8628 §3.1: the OAuth endpoints take application/x-www-form-urlencoded only.
    oauth: { error: "invalid_request", status: 400 },
  },
  slow_down: {
    status: 429,
    meaning: "Polled faster than `interval` (RFC 8628 §3.5): wait `interval` ms, as `Retry-After` says.",
    example: "Polling too fast: wait 5000 ms between requests.",
    // RFC 8628 §3.5: a token request's slow_down is a 400 like every other OAuth error.
    oauth: { status: 400 },
  },
  rate_limited: {
    status: 429,
    meaning: "Too many requests in the window; `Retry-After` says when to try again.",
    example: "Too many requests: at most 10 per 60 s. Try again in 42 s.",
    page: "Too many attempts. Wait a few minutes and try again.",
  },
  too_many_new_projects: {
    status: 429,
    meaning:
      "Approving into a new project: this account (`NEW_PROJECTS_PER_ACCOUNT_PER_HOUR`) or this address (`NEW_PROJECTS_PER_ADDRESS_PER_HOUR`) made as many new projects this hour as it may; `Retry-After` says when to try again. Approving into an existing project still works (pages only).",
    example: "This account made 10 new projects this hour, the most it may. Approve into one of your projects, or try again in 23 minutes.",
    page: "You (or your network) made as many new projects this hour as allowed. Approve this request into one of your projects below, or make a new one later.",
  },
  internal_error: {
    status: 500,
    meaning: "Our fault; the detail is only in the server's log, under the request id.",
    example: "Something went wrong on our side. Please try again.",
    oauth: { error: "server_error" },
  },
  oidc_unavailable: {
    status: 502,
    meaning: "The identity provider could not be reached, took too long, or answered with something that is not OpenID Connect (its metadata, token or UserInfo endpoint) (pages only).",
    example: "Your identity provider could not be reached.",
    page: "Your identity provider could not be reached. Nothing was changed. Try again in a moment, or sign in another way.",
  },
  oidc_invalid_response: {
    status: 502,
    meaning:
      "The identity provider's answer did not verify: the ID token's signature (the provider's JWKS), issuer, audience, expiry or nonce, or the provider refused the code (pages only).",
    example: "The ID token's nonce is not the one this sign-in sent.",
    page: "Your identity provider's answer could not be verified, so you were not signed in. Nothing was changed. Start again.",
  },
  unavailable: {
    status: 503,
    meaning:
      "The database does not answer, or could not take the request in time (every connection busy under load, or its write lock held elsewhere); `Retry-After` says when to try again.",
    example: "The database is busy. Try again in a moment.",
    page: "The service is busy right now. Try again in a moment.",
    oauth: { error: "temporarily_unavailable" },
  },
  key_not_ready: {
    status: 503,
    meaning: "The project's key pair is still being generated; try again after `Retry-After`.",
    example: "This project's key pair is still being generated. Try again shortly.",
  },
  server_busy: {
    status: 503,
    meaning: "This process holds as many waiting requests as it may (`WAITING_PER_PROCESS`); poll the status instead, or try again after `Retry-After`.",
    example: "This server holds as many waiting requests as it can. Poll the status instead.",
  },
  // Not approved yet: accepted, not done. The client asks again; every answer but 200 means
  // "not yet" to the clients of the original platform.
  link_approval_pending: {
    status: 202,
    meaning: "A browser-approved link is not approved yet: ask again later.",
    example: "Waiting for a person to approve this link in the browser, at /projects/{projectId}/link/{iv}. Ask again later.",
  },
  // The OAuth endpoints' own codes (RFC 6749 §5.2, RFC 8628 §3.5), answered in the OAuth dialect only.
  authorization_pending: {
    status: 400,
    meaning: "RFC 8628 §3.5: the person has not approved or denied yet; ask again after `interval` seconds.",
    example: "The person has not approved this request yet.",
  },
  access_denied: {
    status: 400,
    meaning: "RFC 8628 §3.5: the person denied the request, or took their approval back before the client had its tokens.",
    example: "The person denied this request.",
  },
  expired_token: {
    status: 400,
    meaning: "RFC 8628 §3.5: the device code expired before the person approved it; start a new device authorization.",
    example: "The device code has expired. Start again.",
  },
  invalid_grant: {
    status: 400,
    meaning:
      "RFC 6749 §5.2: the authorization code, device code or refresh token is unknown, expired, revoked, already used, or was issued to another client; an authorization code also with another `redirect_uri` or a `code_verifier` that does not match its challenge (RFC 7636 §4.6). A refresh token used twice revokes its whole login (RFC 9700 §4.14.2), and so does an authorization code used twice (RFC 6749 §4.1.2).",
    example: "The device code is not valid or was already used.",
  },
  unsupported_token_type: {
    status: 400,
    meaning: "RFC 7009 §2.2.1: this token cannot be revoked here (a link bearer: revoke the link on its project's page).",
    example: "A link bearer is revoked on its project's page, not here.",
  },
  // RFC 6749 §5.2: a client_id not on OAUTH_CLIENT_IDS. A public client authenticates with
  // nothing, so no WWW-Authenticate scheme applies: 400, not 401.
  invalid_client: {
    status: 400,
    meaning:
      "RFC 6749 §5.2: the `client_id` is not one this server accepts (`OAUTH_CLIENT_IDS`). At the authorization endpoint, a missing, repeated or unusable `client_id` too, shown on this site's page and never sent to the client (RFC 6749 §4.1.2.1).",
    example: "This client_id is not accepted here.",
    page: "The application that sent you here did not say who it is in a way this site accepts, so you were not sent back to it. Start again from the application, or tell its developers.",
  },
  invalid_redirect_uri: {
    status: 400,
    meaning:
      "The authorization endpoint's `redirect_uri` is missing, repeated or not a loopback URI (`http://127.0.0.1:<port>/…` or `http://[::1]:<port>/…`, RFC 8252 §7.3): shown on this site's page and never redirected to (RFC 6749 §4.1.2.1) (pages only).",
    example: "The application asked to be answered at an address that is not a loopback address of this computer.",
    page: "The application asked to be sent its answer somewhere other than this computer, so you were not sent there. Start again from the application, or tell its developers.",
  },
  unsupported_grant_type: {
    status: 400,
    meaning: "RFC 6749 §5.2: this server does not take this `grant_type`.",
    example: "grant_type must be authorization_code, urn:ietf:params:oauth:grant-type:device_code or refresh_token.",
  },
} as const satisfies Record<string, ErrorEntry>;

export type ErrorCode = keyof typeof ERRORS;

export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];

export type FieldProblem = { field: string; message: string };

/**
 * What a client needs besides the message: the fields at fault, the interval to keep, when to try
 * again; for a 401 whose credential is a DPoP-bound token (RFC 9449 §7.1) or a client's Basic
 * credentials (RFC 6749 §5.2), its challenge's scheme; for a refused identity provider's
 * callback, the flow it ended.
 */
export type ErrorData = { fields?: FieldProblem[]; interval?: number; retryInSeconds?: number; challenge?: "DPoP" | "Basic"; oidcFlow?: OidcFlowOutcome };

/** What a refused OpenID Connect callback goes back to (lib/identity/): the sign-in page with its way back, or the account's settings. */
export type OidcFlowOutcome = { purpose: "sign_in"; returnTo: string } | { purpose: "link" };

export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly data: ErrorData = {},
  ) {
    super(message);
  }
}

/** Whole seconds to wait for `ms` to pass: at least 1, as Retry-After counts. */
export const secondsToWait = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** RFC 8628 §3.5: polled faster than `intervalMs`; the next poll is welcome in `waitMs`. */
export const slowDown = (intervalMs: number, waitMs: number) =>
  new ApiError("slow_down", `Polling too fast: wait ${intervalMs} ms between requests.`, { interval: intervalMs, retryInSeconds: secondsToWait(waitMs) });

/** Over a limit; `retryInSeconds` until a unit comes back. */
export const rateLimited = (message: string, retryInSeconds: number) => new ApiError("rate_limited", message, { retryInSeconds });

/** Nothing of this kind with this id (that the caller may see). */
export const notFound = (message: string) => new ApiError("not_found", message);

/** The credential is malformed, unknown, revoked or expired. */
export const invalidToken = (message: string) => new ApiError("invalid_token", message);

/** RFC 6749 §5.2: a client's `Authorization: Basic` credentials that do not authenticate it, challenged under that scheme. */
export const clientAuthenticationFailed = (message: string) => new ApiError("client_authentication_failed", message, { challenge: "Basic" });

/** A passkey's answer that does not verify (lib/passkeys/verify-assertion.ts). */
export const passkeyRejected = (message: string) => new ApiError("passkey_rejected", message);

/** The person's decision came too late or twice. */
export const initNotPending = (message: string) => new ApiError("init_not_pending", message);

/** How `code` answers in the OAuth dialect (RFC 6749 §5.2): its `error` and status. */
export function oauthError(code: ErrorCode): { error: string; status: number } {
  const entry: ErrorEntry = ERRORS[code];
  return { error: entry.oauth?.error ?? code, status: entry.oauth?.status ?? entry.status };
}

/** RFC 8628 §3.5: the person has not decided yet. */
export const authorizationPending = () => new ApiError("authorization_pending", ERRORS.authorization_pending.example);

/** RFC 6749 §5.2: the grant or refresh token cannot be used (unknown, used, expired, revoked, or another client's). */
export const invalidGrant = (message: string) => new ApiError("invalid_grant", message);

/** What a page says for the `?error=<code>` a form post sent it back with; null for no or an unknown code. */
/** Whether a form came back for a mailed link that no longer works: its page then offers a new one. */
export const isLinkError = (code: string | string[] | undefined): boolean =>
  code === "email_link_invalid" || code === "email_link_used" || code === "email_link_voided" || code === "email_link_expired";

export function pageMessage(code: string | string[] | undefined): string | null {
  if (typeof code !== "string" || !Object.hasOwn(ERRORS, code)) return null;
  const entry: ErrorEntry = ERRORS[code as ErrorCode];
  return entry.page ?? "Something went wrong. Please try again.";
}
