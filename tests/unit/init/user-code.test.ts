import { describe, expect, it } from "vitest";
import { newUserCode, USER_CODE_ALPHABET } from "@/lib/init/user-code";
import { RANDOM_ID_PATTERN, randomId } from "@/lib/secrets";

describe("init codes", () => {
  it("makes URL-safe 128-bit ids", () => {
    const ids = Array.from({ length: 1000 }, randomId);
    expect(ids.every((id) => RANDOM_ID_PATTERN.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(1000);
  });

  // RFC 8628 §6.1: no vowels, no look-alike characters.
  it("makes user codes of eight consonants, using the whole alphabet", () => {
    const codes = Array.from({ length: 2000 }, newUserCode);
    expect(codes.every((code) => /^[A-Z]{4}-[A-Z]{4}$/.test(code))).toBe(true);
    const used = new Set(codes.join("").replace(/-/g, ""));
    expect([...used].sort().join("")).toBe(USER_CODE_ALPHABET);
  });
});
