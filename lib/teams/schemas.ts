import { z } from "zod";
import { credentialsSchema } from "../auth/schemas";
import { TEAM_NAME_MAX } from "../field-lengths";
import { requiredText } from "../text";
import { TEAM_ROLES } from "./roles";

// The teams' forms (docs/teams.md).

export const teamNameSchema = requiredText(TEAM_NAME_MAX);

/** The new-team form, and the team's Rename form. */
export const teamNameFormSchema = z.object({ name: teamNameSchema });

/** /teams/{id}/…: the team's id. */
export const teamParamsSchema = z.object({ id: z.string() });

/** /teams/{id}/members/{userId}/…: a member of the team. */
export const memberParamsSchema = z.object({ id: z.string(), userId: z.string() });

/** /teams/{id}/invitations/{invitationId}/…: an invitation of the team. */
export const invitationParamsSchema = z.object({ id: z.string(), invitationId: z.string() });

const role = z.enum(TEAM_ROLES, { error: "choose member, admin or owner" });

/** A member's new role. */
export const changeRoleFormSchema = z.object({ role });

/** Removing a member: `keep_links=yes` keeps the links their tokens made (and the tokens those hang on). */
export const removeMemberFormSchema = z.object({ keep_links: z.enum(["yes"]).optional() }).transform((fields) => ({ keepLinks: fields.keep_links === "yes" }));

/** The invite form: the address (lower-cased, as accounts' are), the role, and whether any account may accept. */
export const inviteFormSchema = z
  .object({ email: credentialsSchema.shape.email, role, any_email: z.enum(["yes"]).optional() })
  .transform((fields) => ({ email: fields.email, role: fields.role, anyEmail: fields.any_email === "yes" }));

/** An invitation's token, as its page posts it from the link's fragment (256 bits, base64url). */
export const acceptInvitationFormSchema = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, { error: "is not an invitation's token" }) });

/** Moving a personal project into a team. */
export const moveProjectFormSchema = z.object({ team: z.string().max(100) });
