import { projectParamsSchema } from "../../projects/schemas";
import {
  acceptInvitationFormSchema,
  changeRoleFormSchema,
  invitationParamsSchema,
  inviteFormSchema,
  memberParamsSchema,
  moveProjectFormSchema,
  removeMemberFormSchema,
  teamNameFormSchema,
  teamParamsSchema,
} from "../../teams/schemas";
import { emptyFormSchema, operation } from "../operation";

// The teams' forms (docs/teams.md): /teams, a team's page, and the invitation page.

const formErrors = ["cross_site_request", "unauthorized", "duplicate_session_cookie", "unsupported_media_type", "payload_too_large", "invalid_request"] as const;
const teamPage = ({ id }: { id: string }) => `/teams/${encodeURIComponent(id)}`;

// POST /teams/create — the new-team form of /teams
export const createTeamOperation = operation({
  method: "POST",
  route: "/teams/create",
  auth: "session",
  sameOrigin: true,
  body: { form: teamNameFormSchema },
  answer: { redirect: true, back: () => "/teams" },
  errors: [...formErrors, "rate_limited"],
});

// POST /teams/{id}/rename — the team's Rename form (owners)
export const renameTeamOperation = operation({
  method: "POST",
  route: "/teams/[id]/rename",
  auth: "session",
  sameOrigin: true,
  params: teamParamsSchema,
  body: { form: teamNameFormSchema },
  answer: { redirect: true, back: teamPage },
  errors: [...formErrors, "not_found", "team_role_required"],
});

// POST /teams/{id}/delete — the team's Delete button (owners; a team without projects)
export const deleteTeamOperation = operation({
  method: "POST",
  route: "/teams/[id]/delete",
  auth: "session",
  sameOrigin: true,
  params: teamParamsSchema,
  body: { form: emptyFormSchema },
  answer: { redirect: true, back: teamPage },
  errors: [...formErrors, "not_found", "team_role_required", "team_has_projects"],
});

// POST /teams/{id}/invitations/create — the invite form. It answers JSON, not a redirect, so that
// the invitation's link, shown once, never travels in a URL or a cookie.
export const inviteMemberOperation = operation({
  method: "POST",
  route: "/teams/[id]/invitations/create",
  auth: "session",
  sameOrigin: true,
  params: teamParamsSchema,
  body: { form: inviteFormSchema },
  answer: { status: 201 },
  errors: [...formErrors, "not_found", "team_role_required", "rate_limited", "internal_error"],
});

// POST /teams/{id}/invitations/{invitationId}/revoke — an open invitation's Revoke button (admins)
export const revokeInvitationOperation = operation({
  method: "POST",
  route: "/teams/[id]/invitations/[invitationId]/revoke",
  auth: "session",
  sameOrigin: true,
  params: invitationParamsSchema,
  body: { form: emptyFormSchema },
  answer: { redirect: true, back: teamPage },
  errors: [...formErrors, "not_found", "team_role_required"],
});

// POST /teams/{id}/members/{userId}/role — a member's role (owners)
export const changeRoleOperation = operation({
  method: "POST",
  route: "/teams/[id]/members/[userId]/role",
  auth: "session",
  sameOrigin: true,
  params: memberParamsSchema,
  body: { form: changeRoleFormSchema },
  answer: { redirect: true, back: teamPage },
  errors: [...formErrors, "not_found", "team_role_required", "last_owner"],
});

// POST /teams/{id}/members/{userId}/remove — removing a member (admins), or leaving (oneself), after the confirmation page
export const removeMemberOperation = operation({
  method: "POST",
  route: "/teams/[id]/members/[userId]/remove",
  auth: "session",
  sameOrigin: true,
  params: memberParamsSchema,
  body: { form: removeMemberFormSchema },
  answer: { redirect: true, back: ({ id, userId }) => `/teams/${encodeURIComponent(id)}/members/${encodeURIComponent(userId)}` },
  errors: [...formErrors, "not_found", "team_role_required", "last_owner"],
});

// POST /teams/join/accept — the invitation page's Join button; the token comes from the link's fragment
export const acceptInvitationOperation = operation({
  method: "POST",
  route: "/teams/join/accept",
  auth: "session",
  sameOrigin: true,
  body: { form: acceptInvitationFormSchema },
  answer: { redirect: true, back: () => "/teams/join" },
  errors: [...formErrors, "invitation_invalid", "invitation_used", "invitation_revoked", "invitation_expired", "invitation_email_mismatch", "already_member"],
});

// POST /projects/{id}/move — moving a personal project into a team its owner owns
export const moveProjectOperation = operation({
  method: "POST",
  route: "/projects/[id]/move",
  auth: "session",
  sameOrigin: true,
  params: projectParamsSchema,
  body: { form: moveProjectFormSchema },
  answer: { redirect: true, back: ({ id }) => `/projects/${encodeURIComponent(id)}` },
  errors: [...formErrors, "not_found", "team_role_required"],
});
