import { z } from "zod";

// Characters that make text display as something other than what it is, or are no text at all,
// named by Unicode property rather than listed by hand: controls (Cc), every format character
// (Cf: zero-width spaces and joiners, soft hyphens, tags, the invisible operators), the bidi
// controls (Bidi_Control: overrides, isolates and marks that can make a device name read as
// someone else's), the line and paragraph separators (U+2028, U+2029: Zl, Zp), and lone UTF-16
// surrogates (Cs: JSON allows them as escapes; the database driver cannot store them).
const UNSAFE_CHARACTERS = /[\p{Cc}\p{Cf}\p{Bidi_Control}\p{Zl}\p{Zp}\p{Cs}]/u;
/** The same, for replacing every one (replace() starts a global pattern from its beginning each call). */
const EVERY_UNSAFE_CHARACTER = new RegExp(UNSAFE_CHARACTERS.source, "gu");

/** The one rule for text a client or person sends: a string, trimmed, at most `max` characters, nothing unsafe. */
export const safeText = (max: number) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") })
    .trim()
    .max(max, { error: `must be at most ${max} characters` })
    .refine((value) => !UNSAFE_CHARACTERS.test(value), { error: "must not contain control, format or bidi characters" });

/** safeText that must not be empty. */
export const requiredText = (max: number) => safeText(max).min(1, { error: "is required" });

/** safeText that may be left out: absent, null and empty (after trimming) all mean "not reported" (null). */
export const optionalText = (max: number) =>
  safeText(max)
    .nullish()
    .transform((value) => (value ? value : null));

/**
 * Text a client sent without being asked (a User-Agent), kept to show a person: at most `max`
 * characters, each unsafe one replaced by U+FFFD, so it displays as what it is.
 */
export function observedText(value: string | null, max: number): string | null {
  return value === null ? null : value.slice(0, max).replace(EVERY_UNSAFE_CHARACTER, "\uFFFD");
}
