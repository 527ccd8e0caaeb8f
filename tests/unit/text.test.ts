import { describe, expect, it } from "vitest";
import { observedText, safeText } from "@/lib/text";

// The one text rule (lib/text.ts): client-reported text may hold no control, format (Cf) or bidi
// control character, nor a line or paragraph separator: each can make text display as
// something other than what it is, or break the line it is shown on.

const rule = safeText(100);

// Named here rather than derived from the rule's own Unicode properties: the list the rule
// replaced missed most of these.
const REFUSED: [string, string][] = [
  ["U+0000 NULL (Cc)", "\u0000"],
  ["U+0009 TAB (Cc)", "\u0009"],
  ["U+007F DELETE (Cc)", "\u007f"],
  ["U+0085 NEXT LINE (Cc)", "\u0085"],
  ["U+00AD SOFT HYPHEN (Cf)", "\u00ad"],
  ["U+061C ARABIC LETTER MARK (Bidi_Control)", "\u061c"],
  ["U+180E MONGOLIAN VOWEL SEPARATOR (Cf)", "\u180e"],
  ["U+200B ZERO WIDTH SPACE (Cf)", "\u200b"],
  ["U+200D ZERO WIDTH JOINER (Cf)", "\u200d"],
  ["U+200E LEFT-TO-RIGHT MARK (Bidi_Control)", "\u200e"],
  ["U+202E RIGHT-TO-LEFT OVERRIDE (Bidi_Control)", "\u202e"],
  ["U+2028 LINE SEPARATOR", "\u2028"],
  ["U+2029 PARAGRAPH SEPARATOR", "\u2029"],
  ["U+2060 WORD JOINER (Cf)", "\u2060"],
  ["U+2064 INVISIBLE PLUS (Cf)", "\u2064"],
  ["U+2067 RIGHT-TO-LEFT ISOLATE (Bidi_Control)", "\u2067"],
  ["U+FEFF ZERO WIDTH NO-BREAK SPACE (Cf)", "\ufeff"],
  ["U+FFF9 INTERLINEAR ANNOTATION ANCHOR (Cf)", "\ufff9"],
  ["U+E0001 LANGUAGE TAG (Cf)", "\u{e0001}"],
  ["U+E0041 TAG LATIN CAPITAL LETTER A (Cf)", "\u{e0041}"],
  ["a lone surrogate", "\ud800"],
];

describe("safeText", () => {
  it.each(REFUSED)("refuses %s inside text", (_name, character) => {
    const result = rule.safeParse(`pot${character}gnp.exe`);
    expect(result.success).toBe(false);
  });

  it.each([["Zürich-Laptop"], ["日本語のマシン"], ["مكتب"], ["build 😀 box"], ["née (Ω)"]])("accepts ordinary text: %s", (text) => {
    expect(rule.parse(text)).toBe(text);
  });
});

// A User-Agent is shown to the person deciding (the init page, the link approval page, the
// project's linked clients): it is not refused, but nothing in it may hide or reorder text.
describe("observedText", () => {
  it("replaces each unsafe character, keeps the rest, and cuts to the limit", () => {
    expect(observedText("curl/8\u0085\u202e1.0", 100)).toBe("curl/8\uFFFD\uFFFD1.0");
    expect(observedText("a".repeat(500), 300)).toHaveLength(300);
    expect(observedText("Mozilla/5.0 (X11; Linux) née", 100)).toBe("Mozilla/5.0 (X11; Linux) née");
    expect(observedText(null, 100)).toBeNull();
  });
});
