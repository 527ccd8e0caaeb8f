import { z } from "zod";
import { EMAIL_MAX, PASSWORD_MAX, PASSWORD_MIN } from "../field-lengths";

/** The sign-in and sign-up forms. */
export const credentialsSchema = z.object({
  email: z
    .string({ error: "is required" })
    .trim()
    .toLowerCase()
    .max(EMAIL_MAX, { error: `must be at most ${EMAIL_MAX} characters` })
    .pipe(z.email({ error: "must be an email address" })),
  password: z
    .string({ error: "is required" })
    .min(PASSWORD_MIN, { error: `must be at least ${PASSWORD_MIN} characters` })
    .max(PASSWORD_MAX, { error: `must be at most ${PASSWORD_MAX} characters` }),
});

export type Credentials = z.infer<typeof credentialsSchema>;

/** The sign-up form: the credentials, and the team invitation's token the page found in this tab, if any (SIGN_UP=invite). */
export const signUpSchema = credentialsSchema.extend({ invitation: z.string().max(100).optional() });

export type SignUpFields = z.infer<typeof signUpSchema>;

const passwordField = credentialsSchema.shape.password;

/** The password change form: the current password, and a new one by sign-up's rules, not the same. */
export const passwordChangeSchema = z
  .object({ current_password: z.string({ error: "is required" }).max(PASSWORD_MAX, { error: `must be at most ${PASSWORD_MAX} characters` }), new_password: passwordField })
  .refine((form) => form.new_password !== form.current_password, { path: ["new_password"], error: "must differ from the current password" });

export type PasswordChange = z.infer<typeof passwordChangeSchema>;

/** A session of the account, in /settings/sessions/{id}/signout. */
export const sessionIdParamsSchema = z.object({ id: z.string() });

/** The account setting "show my email to clients I approve" (/settings/privacy). */
export const shareEmailSchema = z.object({ share_email: z.enum(["on"]).optional() });

/** A token of a mailed link, posted by its page from the link's fragment (lib/email/email-links.ts): 256 bits in base64url. */
const emailLinkToken = z.string({ error: "is required" }).regex(/^[A-Za-z0-9_-]{43}$/, { error: "is not a link's token" });

/** "Forgot password?": the email to send a reset link to. */
export const passwordResetRequestSchema = credentialsSchema.pick({ email: true });
export type PasswordResetRequest = z.infer<typeof passwordResetRequestSchema>;

/** The reset page's form: the link's token and the new password, by sign-up's rules. */
export const passwordResetSchema = z.object({ token: emailLinkToken, password: passwordField });
export type PasswordReset = z.infer<typeof passwordResetSchema>;

/** The confirmation page's form: the link's token. */
export const emailLinkFormSchema = z.object({ token: emailLinkToken });
export type EmailLinkForm = z.infer<typeof emailLinkFormSchema>;
