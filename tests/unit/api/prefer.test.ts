import { describe, expect, it } from "vitest";
import { parsePreferences, preferredWait, WAIT_CAP_SECONDS } from "@/lib/api/prefer";

// RFC 7240 §2: the Prefer header's grammar; §4.3: the wait preference.
describe("parsePreferences", () => {
  it("reads several preferences, names in any case, values as tokens or quoted strings", () => {
    expect(parsePreferences('respond-async, WAIT=10;x=1 , Handling = "lenient, really"')).toEqual(
      new Map([
        ["respond-async", ""],
        ["wait", "10"],
        ["handling", "lenient, really"],
      ]),
    );
  });

  it("keeps the first instance of a repeated preference", () => {
    expect(parsePreferences("wait=5, wait=9").get("wait")).toBe("5");
  });

  it("drops a preference whose name or value is malformed", () => {
    expect(parsePreferences('=5, wa it=3, wait="unterminated, ok=1')).toEqual(new Map());
  });
});

describe("preferredWait", () => {
  it.each([
    [null, null],
    ["", null],
    ["respond-async", null],
    ["wait=0", 0],
    ["wait=15", 15],
    ['wait="15"', 15],
    [`wait=${WAIT_CAP_SECONDS + 1}`, WAIT_CAP_SECONDS],
    ["wait=99999999999999999999", null],
    ["wait=-3", null],
    ["wait=1e3", null],
    ["wait= 4", 4],
  ])("%j → %j", (header, expected) => {
    expect(preferredWait(header)).toBe(expected);
  });
});
