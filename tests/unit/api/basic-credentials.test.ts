import { describe, expect, it } from "vitest";
import { basicCredentials, isBasicHeader } from "@/lib/api/basic-credentials";

// client_secret_basic as the server reads it (lib/api/basic-credentials.ts): RFC 7617's Basic
// scheme over RFC 6749 §2.3.1's form-encoded client_id and client_secret.

const b64 = (text: string) => Buffer.from(text).toString("base64");

describe("basicCredentials", () => {
  it.each([
    ["a plain pair", `Basic ${b64("ilrs_abc:ilrss_def")}`, { clientId: "ilrs_abc", clientSecret: "ilrss_def" }],
    // RFC 7235 §2.1: the scheme is case-insensitive; spaces around the token68 are tolerated.
    ["the scheme in any case, spaces around", `bASIC   ${b64("id:secret")}  `, { clientId: "id", clientSecret: "secret" }],
    // RFC 6749 §2.3.1: form-encoded first, so `+` is a space and an escaped colon stays in the id.
    ["form-encoded parts", `Basic ${b64("a%3Ab+c:p%25%2B+q")}`, { clientId: "a:b c", clientSecret: "p%+ q" }],
    ["a secret with colons", `Basic ${b64("id:a:b")}`, { clientId: "id", clientSecret: "a:b" }],
    ["UTF-8 parts", `Basic ${b64("%C3%A9t%C3%A9:\u00e9")}`, { clientId: "\u00e9t\u00e9", clientSecret: "\u00e9" }],
  ])("reads %s", (_case, header, expected) => {
    expect(basicCredentials(header)).toEqual(expected);
  });

  it.each([
    ["no token", "Basic"],
    ["an empty token", "Basic "],
    ["another scheme", `Bearer ${b64("id:secret")}`],
    ["no space after the scheme", `Basic${b64("id:secret")}`],
    ["characters outside base64", "Basic aWQ6c2VjcmV0-_"],
    ["base64 without its padding", `Basic ${b64("id:secre").replace(/=+$/, "")}`],
    ["base64 with stray bits", "Basic aWQ6c2VjcmV="],
    ["a second token", `Basic ${b64("id:secret")} ${b64("id:secret")}`],
    ["no colon", `Basic ${b64("idsecret")}`],
    ["an empty id", `Basic ${b64(":secret")}`],
    ["an empty secret", `Basic ${b64("id:")}`],
    ["a broken percent-escape", `Basic ${b64("id:%zz")}`],
    ["bytes that are not UTF-8", `Basic ${Buffer.from([0x69, 0x64, 0x3a, 0xff]).toString("base64")}`],
  ])("refuses %s", (_case, header) => {
    expect(basicCredentials(header)).toBeNull();
  });

  it("tells the Basic scheme from others, however well formed", () => {
    expect(["Basic", "basic x", "BASIC !"].map(isBasicHeader)).toEqual([true, true, true]);
    expect(["Basicx", "Bearer x", "DPoP x", ""].map(isBasicHeader)).toEqual([false, false, false, false]);
  });
});
