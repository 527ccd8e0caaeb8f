import { isIP } from "node:net";
import { z } from "zod";
import { UNSAFE_CHARACTERS } from "../text";

// Limits of Create Init's fields, after trimming (documented in README.md).
export const SENDER_MAX = 200;
export const SENDER_DEVICE_MAX = 200;
export const SENDER_OS_MAX = 100;


const text = (max: number) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") })
    .trim()
    .max(max, { error: `must be at most ${max} characters` })
    .refine((value) => !UNSAFE_CHARACTERS.test(value), { error: "must not contain control characters" });

// Optional fields: absent, null and empty (after trimming) all mean "not reported".
const optionalText = (max: number) =>
  text(max)
    .nullish()
    .transform((value) => (value ? value : null));

export const createInitBodySchema = z.object(
  {
    sender: text(SENDER_MAX).min(1, { error: "is required" }),
    sender_device: optionalText(SENDER_DEVICE_MAX),
    sender_os: optionalText(SENDER_OS_MAX),
    sender_ip: optionalText(45).refine((value) => value === null || isIP(value) !== 0, {
      error: "must be an IPv4 or IPv6 address",
    }),
  },
  { error: "The body must be a JSON object." },
);

export type CreateInitBody = z.infer<typeof createInitBodySchema>;
