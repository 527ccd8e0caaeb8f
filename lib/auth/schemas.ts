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
