import { z } from "zod";

// C0/C1 controls, the bidirectional overrides that can make text read differently from what it
// is (a device name that displays as someone else's), and lone UTF-16 surrogates, which are no
// text at all (JSON allows them as escapes; the database driver cannot store them).
const UNSAFE_CHARACTERS = /[\p{Cc}\p{Cs}\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/** The one rule for text a client or person sends: a string, trimmed, at most `max` characters, nothing unsafe. */
export const safeText = (max: number) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") })
    .trim()
    .max(max, { error: `must be at most ${max} characters` })
    .refine((value) => !UNSAFE_CHARACTERS.test(value), { error: "must not contain control characters" });

/** safeText that must not be empty. */
export const requiredText = (max: number) => safeText(max).min(1, { error: "is required" });
