import { describe, expect, it } from "vitest";
import { requestIdOf } from "@/server/request-context.mjs";

// An incoming X-Request-Id is kept when it is one sane token (server.mjs), else replaced.
const fresh = () => "fresh-id";

describe("requestIdOf", () => {
  it.each([
    "f47ac10b-58cc-4372-a567-0e02b2c3d479",
    "01HZX3J5Q8N7V6T4R2M1K0P9S8",
    "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8",
    "abc.DEF_123:456/789+0=@x",
    "x".repeat(128),
  ])("keeps %s", (incoming) => {
    expect(requestIdOf(incoming, fresh)).toBe(incoming);
  });

  it.each([
    ["nothing", undefined],
    ["an empty value", ""],
    ["129 characters", "x".repeat(129)],
    ["a space", "two words"],
    ["a repeated header, joined by Node", "a-1, b-2"],
    ["quotes and braces", '{"level":"fatal"}'],
    ["a control character", "id\u0007"],
    ["non-ASCII", "idé"],
    ["an array", ["a", "b"]],
  ])("gives a fresh id for %s", (_case, incoming) => {
    expect(requestIdOf(incoming, fresh)).toBe("fresh-id");
  });
});
