import { z } from "zod";
import { RANDOM_ID_PATTERN } from "../secrets";
import { safeText } from "../text";
import { EVENT_TYPE_NAMES, type EventType } from "./event-types";

// The forms of /webhooks (docs/events.md).

/** Long enough for any real endpoint, short enough to show. */
export const ENDPOINT_URL_MAX = 2000;
export const ENDPOINT_DESCRIPTION_MAX = 200;

const isEventType = (value: string): value is EventType => (EVENT_TYPE_NAMES as string[]).includes(value);

/**
 * The new-endpoint form. `types`: the event types, separated by spaces (the page joins its
 * checkboxes: a field sent twice keeps its first value, lib/api/body.ts); `team`: the team whose
 * endpoint it is, or empty for the person's own.
 */
export const newEndpointSchema = z.object({
  url: z.string({ error: "is required" }).trim().min(1, { error: "is required" }).max(ENDPOINT_URL_MAX, { error: `must be at most ${ENDPOINT_URL_MAX} characters` }),
  description: safeText(ENDPOINT_DESCRIPTION_MAX).default(""),
  types: z
    .string({ error: "choose at least one event type" })
    .max(EVENT_TYPE_NAMES.join(" ").length + 20)
    .transform((value) => [...new Set(value.split(" ").filter((type) => type !== ""))])
    .pipe(
      z
        .array(z.string().refine(isEventType, { error: `must be event types (${EVENT_TYPE_NAMES.join(", ")})` }))
        .min(1, { error: "choose at least one event type" })
        .transform((types) => types.filter(isEventType)),
    ),
  team: z
    .string()
    .optional()
    .transform((value) => (value === undefined || value === "" ? null : value))
    .pipe(z.string().regex(RANDOM_ID_PATTERN, { error: "must be a team's id" }).nullable()),
});

export type NewEndpoint = z.infer<typeof newEndpointSchema>;

/** /webhooks/{id}/…: the endpoint's id. */
export const endpointParamsSchema = z.object({ id: z.string() });

/** /webhooks/{id}/deliveries/{messageId}/resend. */
export const messageParamsSchema = z.object({ id: z.string(), messageId: z.string() });

/** The longest a rotated-out secret keeps signing: a week. */
export const MAX_OVERLAP_HOURS = 168;

/** Rotating the secret: how many hours the previous one keeps signing (default 24). */
export const rotateSecretSchema = z.object({
  overlap_hours: z
    .string()
    .optional()
    .transform((value) => (value === undefined || value === "" ? 24 : Number(value)))
    .pipe(z.number().int({ error: "must be a whole number of hours" }).min(0).max(MAX_OVERLAP_HOURS, { error: `must be at most ${MAX_OVERLAP_HOURS} hours` })),
});
