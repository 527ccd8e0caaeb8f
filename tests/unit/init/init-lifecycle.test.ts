import { describe, expect, it } from "vitest";
import { effectiveStatus } from "@/lib/init/init-lifecycle";

describe("effectiveStatus", () => {
  const expiresAt = new Date(10_000);
  it.each([
    ["pending", 9_999, "pending"],
    ["pending", 10_000, "expired"],
    ["done", 20_000, "done"],
    ["denied", 20_000, "denied"],
  ])("reads %s at %d as %s", (stored, now, expected) => {
    expect(effectiveStatus(stored, expiresAt, now)).toBe(expected);
  });
});
