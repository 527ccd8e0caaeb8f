import { z } from "zod";
import { BINDING_MESSAGE_MAX, SENDER_DEVICE_MAX, SENDER_IP_MAX, SENDER_MAX, SENDER_OS_MAX, USER_CODE_INPUT_MAX } from "../field-lengths";
import { projectNameSchema } from "../projects/schemas";
import { optionalText, requiredText } from "../text";

// Request schemas of the init operations (limits documented in docs/api.md, Create Init).

export const createInitBodySchema = z.object(
  {
    sender: requiredText(SENDER_MAX),
    sender_device: optionalText(SENDER_DEVICE_MAX),
    sender_os: optionalText(SENDER_OS_MAX),
    // What the client reports: usually an address, but existing clients send "Unknown" when
    // they have none; the page shows it as reported and compares only an address.
    sender_ip: optionalText(SENDER_IP_MAX),
    // Not in SPEC §4.1: what the access is for, in the client's words (OpenID CIBA's
    // binding_message); the page shows it marked as the application's own.
    binding_message: optionalText(BINDING_MESSAGE_MAX),
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

/** Where the person links the client: a new project named on the page (personal, or in one of their teams), or one they reach. */
export type ProjectChoice = { kind: "new"; name: string; teamId: string | null } | { kind: "existing"; id: string };
/** What the person did about the code: ticked that it matches, or typed it. */
export type CodeCheck = { confirmed: boolean; entered: string };
/** The approve form as the approval reads it; `lifetime`: the access lifetime's label as sent (absent: the preselected one). */
export type ApproveForm = { choice: ProjectChoice; check: CodeCheck; lifetime: string | undefined };

/** The /device form: the code a client showed, as the person typed it. */
export const userCodeFormSchema = z.object({ user_code: z.string().min(1).max(USER_CODE_INPUT_MAX) });

/** The approve form of the init page. */
export const approveFormSchema = z
  .object({
    project: z.string({ error: "choose a project" }).max(100),
    name: z.string().optional(),
    // The team a new project is made in; absent or empty: a personal project.
    team: z.string().max(100).optional(),
    code_confirmed: z.string().optional(),
    user_code: z.string().max(USER_CODE_INPUT_MAX).optional(),
    // One of ACCESS_LIFETIME_CHOICES, checked against them by the approval (lib/init/access-lifetime.ts).
    access_lifetime: z.string().max(20).optional(),
  })
  .transform((fields, ctx): ApproveForm => {
    const check = { confirmed: fields.code_confirmed === "yes", entered: fields.user_code ?? "" };
    const lifetime = fields.access_lifetime;
    if (fields.project !== "new") return { choice: { kind: "existing", id: fields.project }, check, lifetime };
    const name = projectNameSchema.safeParse(fields.name);
    if (!name.success) {
      for (const issue of name.error.issues) ctx.addIssue({ code: "custom", message: issue.message, path: ["name"] });
      return z.NEVER;
    }
    return { choice: { kind: "new", name: name.data, teamId: fields.team === undefined || fields.team === "" ? null : fields.team }, check, lifetime };
  });

// Answer schemas of the init operations: they type the answers and feed the OpenAPI document
// (lib/api/openapi-document.ts), whose test validates the real answers against them.

export const INIT_STATUSES = ["pending", "done", "denied", "expired"] as const;

const epochMs = (description: string) => z.int().nonnegative().meta({ description: `${description} (milliseconds since the Unix epoch)` });
const intervalMs = z.int().positive().meta({ description: "The least time between two polls, in milliseconds (RFC 8628 §3.5)." });

export const createdInitSchema = z
  .object({
    id: z.string().meta({ description: "The init's id." }),
    url: z.url().meta({ description: "The status resource to poll: GET /api/init/{id}." }),
    redirect_url: z.url().meta({ description: "The page to send the person to, where they approve or deny." }),
    interval: intervalMs,
    timestamp: epochMs("When the init was created"),
    user_code: z.string().meta({ description: "The code the client prints, for the person to compare on the page." }),
    expires_at: epochMs("When the init expires unapproved"),
    secret: z.string().startsWith("ilsec_").meta({ description: "Shown once: send it as `Authorization: Bearer <secret>` when polling to collect the access token." }),
  })
  .meta({
    examples: [
      {
        id: "Q2hvb3NlQVJhbmRvbUlkMQ",
        url: "https://initlink.example/api/init/Q2hvb3NlQVJhbmRvbUlkMQ",
        redirect_url: "https://initlink.example/init/Q2hvb3NlQVJhbmRvbUlkMQ",
        interval: 5000,
        timestamp: 1764000000000,
        user_code: "WDJB-MJHT",
        expires_at: 1764000900000,
        secret: "ilsec_3q2-7wAAAAAexampleexampleexampleexample",
      },
    ],
  });

export type CreatedInit = z.infer<typeof createdInitSchema>;

export const initStatusAnswerSchema = z
  .object({
    id: z.string(),
    status: z.enum(INIT_STATUSES),
    timestamp: epochMs("When the status was read"),
    interval: intervalMs,
    expires_at: epochMs("When a pending init expires"),
    project_id: z.string().optional().meta({ description: "Once done: the project the person chose." }),
    project_url: z.url().optional().meta({ description: "Once done: the project's page." }),
    project: z
      .object({
        id: z.string(),
        name: z.string(),
        team_id: z.string().nullable().meta({ description: "The team the project belongs to (docs/teams.md); null for a personal project." }),
      })
      .optional()
      .meta({ description: "Once done, for the holder of the init's secret only." }),
    approved_by: z
      .object({
        email: z.string(),
        email_verified: z.boolean().meta({ description: "Whether the account showed the address is its own: a link mailed to it followed, or its identity provider's email_verified." }),
      })
      .nullable()
      .optional()
      .meta({
        description:
          "Once done, for the holder of the init's secret only: who approved, if their account lets clients learn their email (/settings/privacy); otherwise null. Off by default: the client learns the project, not the person.",
      }),
    access_token: z.string().startsWith("ilat_").optional().meta({ description: "Once done, for the holder of the init's secret, exactly once: the project's access token." }),
    access_token_expires_at: epochMs("When the access token expires: the lifetime the person chose on the approval page").optional(),
    access_token_expires_in: z
      .int()
      .positive()
      .optional()
      .meta({ description: "With the access token: the seconds until it expires, as OAuth's `expires_in` (RFC 6749 §5.1). Not in the specification." }),
    error: z
      .string()
      .optional()
      .meta({ description: "Once denied or expired: what happened, for a person to read. Clients of the original platform stop polling when it is present." }),
  })
  .meta({
    examples: [
      { id: "Q2hvb3NlQVJhbmRvbUlkMQ", status: "pending", timestamp: 1764000005000, interval: 5000, expires_at: 1764000900000 },
      { id: "Q2hvb3NlQVJhbmRvbUlkMQ", status: "denied", timestamp: 1764000020000, interval: 5000, expires_at: 1764000900000, error: "This request has been denied." },
      {
        id: "Q2hvb3NlQVJhbmRvbUlkMQ",
        status: "done",
        timestamp: 1764000030000,
        interval: 5000,
        expires_at: 1764000900000,
        project_id: "UHJvamVjdElkRXhhbXBsZQ",
        project_url: "https://initlink.example/projects/UHJvamVjdElkRXhhbXBsZQ",
        project: { id: "UHJvamVjdElkRXhhbXBsZQ", name: "My app", team_id: null },
        approved_by: null,
        access_token: "ilat_bm90LWEtcmVhbC10b2tlbi1qdXN0LWFuLWV4YW1wbGU",
        access_token_expires_at: 1771776030000,
        access_token_expires_in: 7776000,
      },
    ],
  });

export type InitStatusAnswer = z.infer<typeof initStatusAnswerSchema>;
