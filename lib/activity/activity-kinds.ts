// What an account's activity records (docs/activity.md). The init events copy what the client
// reported at Create Init and where its request came from; the link and token events name the
// access token (a collected token is named after the client: "<sender> on <device>"); a
// password change, where the changing browser was; the passkey events name the passkey, and a
// resource-server credential's its name (kept as tokenName); a reported approval ("This wasn't
// me", lib/approvals/report-approval.ts), where the report came from; a sign-in through the
// identity provider, and its link and unlink, the provider and the browser.

export const ACTIVITY_KINDS = [
  "init_opened",
  "init_approved",
  "init_denied",
  "init_expired",
  "token_collected",
  "link_created",
  "link_revoked",
  "access_token_created",
  "access_token_revoked",
  "resource_server_created",
  "resource_server_revoked",
  "oauth_refresh_reused",
  "oauth_login_revoked",
  "password_changed",
  "password_reset",
  "passkey_added",
  "passkey_removed",
  "approval_reported",
  "provider_signed_in",
  "provider_linked",
  "provider_unlinked",
  // A team's (lib/teams/team-activity.ts), in the acting account's activity and the team's.
  "team_created",
  "team_renamed",
  "team_deleted",
  "member_invited",
  "invitation_revoked",
  "member_joined",
  "member_role_changed",
  "member_removed",
  "member_left",
  "project_moved_to_team",
  // A webhook endpoint's (lib/events/endpoints.ts), named by its URL (kept as tokenName); a team's also in the team's activity.
  "webhook_endpoint_created",
  "webhook_endpoint_deleted",
  "webhook_secret_rotated",
  "webhook_endpoint_disabled",
] as const;

export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

/** What the activity page says happened. */
export const ACTIVITY_LABELS: Record<ActivityKind, string> = {
  init_opened: "You opened a client's request",
  init_approved: "Request approved",
  init_denied: "Request denied",
  init_expired: "Request expired undecided",
  token_collected: "Client collected its access token",
  link_created: "Client linked to a project",
  link_revoked: "Link revoked",
  access_token_created: "Access token created",
  access_token_revoked: "Access token revoked",
  resource_server_created: "Resource-server credential created",
  resource_server_revoked: "Resource-server credential revoked",
  oauth_refresh_reused: "A used refresh token came back: the client's login was revoked",
  oauth_login_revoked: "Client ended its login (refresh token revoked)",
  password_changed: "Password changed; every other session signed out",
  password_reset: "Password set through a link mailed to you; every session signed out",
  passkey_added: "Passkey added",
  passkey_removed: "Passkey removed",
  approval_reported: "You reported an approval as not yours: everything it gave was revoked",
  provider_signed_in: "Signed in through your identity provider",
  provider_linked: "Identity provider linked: it can sign you in",
  provider_unlinked: "Identity provider unlinked: it no longer signs you in",
  team_created: "Team created",
  team_renamed: "Team renamed",
  team_deleted: "Team deleted",
  member_invited: "Invited to the team",
  invitation_revoked: "Invitation revoked",
  member_joined: "Joined the team",
  member_role_changed: "Role changed",
  member_removed: "Removed from the team: what they approved into its projects was revoked",
  member_left: "Left the team: what they approved into its projects was revoked",
  project_moved_to_team: "Project moved into the team",
  webhook_endpoint_created: "Webhook endpoint added",
  webhook_endpoint_deleted: "Webhook endpoint deleted",
  webhook_secret_rotated: "Webhook endpoint's signing secret rotated",
  webhook_endpoint_disabled: "Webhook endpoint disabled: its deliveries failed for the whole retry schedule",
};
