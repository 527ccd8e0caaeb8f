import { describe, expect, it } from "vitest";
import { safeReturnTo } from "@/lib/api/return-to";

// No open redirect: only paths on this site come back out.
describe("safeReturnTo", () => {
  it.each([
    ["/init/abc", "/init/abc"],
    ["/projects?tab=1", "/projects?tab=1"],
    ["https://evil.example/", "/"],
    ["//evil.example", "/"],
    // Dot segments that URL parsing removes, leaving "//evil.example" (found by the hostile-forms suite).
    ["/.//evil.example", "/"],
    ["/..//evil.example", "/"],
    ["/a/..//evil.example", "/"],
    ["/%2e//evil.example", "/"],
    ["/.%2e//evil.example", "/"],
    ["/././/evil.example/x?y=1", "/"],
    ["/a/./b", "/a/b"],
    ["/\\evil.example", "/"],
    ["/%0d%0aSet-Cookie:x", "/%0d%0aSet-Cookie:x"],
    ["/\nx", "/"],
    ["javascript:alert(1)", "/"],
    ["", "/"],
    [undefined, "/"],
    [["/a", "/b"], "/"],
  ])("%j → %s", (input, expected) => {
    expect(safeReturnTo(input)).toBe(expected);
  });
});
