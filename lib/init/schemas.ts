import { z } from "zod";
import { SENDER_DEVICE_MAX, SENDER_IP_MAX, SENDER_MAX, SENDER_OS_MAX, USER_CODE_INPUT_MAX } from "../field-limits";
import { projectNameSchema } from "../projects/schemas";
import { requiredText, safeText } from "../text";

// Request schemas of the init operations (limits documented in docs/api.md, Create Init).

// Optional fields: absent, null and empty (after trimming) all mean "not reported".
const optionalText = (max: number) =>
  safeText(max)
    .nullish()
    .transform((value) => (value ? value : null));

export const createInitBodySchema = z.object(
  {
    sender: requiredText(SENDER_MAX),
    sender_device: optionalText(SENDER_DEVICE_MAX),
    sender_os: optionalText(SENDER_OS_MAX),
    // What the client reports: usually an address, but existing clients send "Unknown" when
    // they have none; the page shows it as reported and compares only an address.
    sender_ip: optionalText(SENDER_IP_MAX),
    // Not in SPEC §4.1: a client that prints user_code says so, and Approve then needs the code
    // typed (lib/init/code-check-mode.ts). Absent or null: a client of the bare specification.
    user_code_shown: z
      .boolean({ error: "must be true or false" })
      .nullish()
      .transform((value) => value === true),
  },
  { error: "The body must be a JSON object." },
);

export type CreateInitBody = z.infer<typeof createInitBodySchema>;

export const initIdParamsSchema = z.object({ id: z.string() });

/** Where the person links the client: a new project named on the page, or one of theirs. */
export type ProjectChoice = { kind: "new"; name: string } | { kind: "existing"; id: string };
/** What the person did about the code: ticked that it matches, or typed it. */
export type CodeCheck = { confirmed: boolean; entered: string };

/** The approve form of the init page. */
export const approveFormSchema = z
  .object({
    project: z.string({ error: "choose a project" }).max(100),
    name: z.string().optional(),
    code_confirmed: z.string().optional(),
    user_code: z.string().max(USER_CODE_INPUT_MAX).optional(),
  })
  .transform((fields, ctx): { choice: ProjectChoice; check: CodeCheck } => {
    const check = { confirmed: fields.code_confirmed === "yes", entered: fields.user_code ?? "" };
    if (fields.project !== "new") return { choice: { kind: "existing", id: fields.project }, check };
    const name = projectNameSchema.safeParse(fields.name);
    if (!name.success) {
      for (const issue of name.error.issues) ctx.addIssue({ code: "custom", message: issue.message, path: ["name"] });
      return z.NEVER;
    }
    return { choice: { kind: "new", name: name.data }, check };
  });
