import { z } from "zod";
import { TOKEN_NAME_MAX } from "../field-lengths";
import { requiredText } from "../text";

/** Lifetimes offered on the settings page, in days; null never expires. */
export const TOKEN_LIFETIME_CHOICES = [7, 30, 90, 365, null] as const;

/** The new-token form of the settings page. */
export const newTokenSchema = z.object({
  name: requiredText(TOKEN_NAME_MAX),
  // "all" for every project of the person, else one project's id.
  scope: z.string({ error: "is required" }).min(1, { error: "is required" }).max(100),
  lifetime: z.enum(["7", "30", "90", "365", "never"], { error: "must be 7, 30, 90 or 365 days, or never" }),
});

export type NewToken = z.infer<typeof newTokenSchema>;

export const tokenIdParamsSchema = z.object({ id: z.string() });
