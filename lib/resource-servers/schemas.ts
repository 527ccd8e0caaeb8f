import { z } from "zod";
import { TOKEN_NAME_MAX } from "../field-lengths";
import { RANDOM_ID_PATTERN } from "../secrets";
import { requiredText } from "../text";

/** Projects one credential may check: as many as an account holds by default, well within a form's 8 KiB. */
export const RESOURCE_SERVER_PROJECTS_MAX = 100;

/**
 * The new-credential form of /settings/resource-servers. `projects`: the ids of the projects it
 * may check, separated by spaces (the page joins its checkboxes: a form field sent twice keeps
 * its first value, lib/api/body.ts).
 */
export const newResourceServerSchema = z.object({
  name: requiredText(TOKEN_NAME_MAX),
  projects: z
    .string({ error: "is required" })
    // Room for the most ids and a few spaces more; the list's own limit says what is wrong.
    .max(RESOURCE_SERVER_PROJECTS_MAX * 30)
    .transform((value) => [...new Set(value.split(" ").filter((id) => id !== ""))])
    .pipe(
      z
        .array(z.string().regex(RANDOM_ID_PATTERN, { error: "must be project ids" }))
        .min(1, { error: "choose at least one project" })
        .max(RESOURCE_SERVER_PROJECTS_MAX, { error: `must be at most ${RESOURCE_SERVER_PROJECTS_MAX} projects` }),
    ),
});

export type NewResourceServer = z.infer<typeof newResourceServerSchema>;

export const resourceServerIdParamsSchema = z.object({ id: z.string() });
