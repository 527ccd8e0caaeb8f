import { describe, expect, it } from "vitest";
import { FORM_FLASH_COOKIE, formFlashCookie, readFormFlash } from "@/lib/api/form-flash";
import { parseConfig } from "@/lib/config";
import { ApiError } from "@/lib/errors";

const MASTER_KEY = Buffer.alloc(32, 1).toString("base64");
const cfg = (APP_URL: string) => parseConfig({ MASTER_KEY, APP_URL });
const valueOf = (cookie: string) => cookie.slice(FORM_FLASH_COOKIE.length + 1).split(";")[0];
const fields = { email: " Ana@Example.com ", password: "correct horse battery" };

// A refused sign-in or sign-up keeps the email for its own page, briefly, and never the password.
describe("the kept form of a refused sign-in or sign-up", () => {
  it("carries the email and the field at fault, for the form's page alone, for a minute", () => {
    const cookie = formFlashCookie(cfg("https://initlink.example"), "/signup", fields, new ApiError("email_taken", "taken"));
    expect(cookie).toMatch(new RegExp(`^${FORM_FLASH_COOKIE}=[^;]+; Path=/signup; HttpOnly; SameSite=Lax; Max-Age=60; Secure$`));
    expect(cookie).not.toContain("correct");
    expect(readFormFlash(valueOf(cookie))).toEqual({ email: "Ana@Example.com", field: "email" });
  });

  it.each([
    [new ApiError("invalid_request", "x", { fields: [{ field: "password", message: "too short" }] }), "password"],
    [new ApiError("invalid_request", "x", { fields: [{ field: "(body)", message: "?" }] }), null],
    [new ApiError("invalid_credentials", "x"), null],
    [new ApiError("rate_limited", "x"), null],
  ])("names the field of %s", (error, field) => {
    const cookie = formFlashCookie(cfg("http://localhost:3000"), "/signin", fields, error);
    expect(cookie).not.toContain("Secure");
    expect(readFormFlash(valueOf(cookie))?.field).toBe(field);
  });

  it.each([undefined, "", "%E0%A4%A", "not json", encodeURIComponent('{"email":3}'), encodeURIComponent('"text"')])("reads %j as nothing kept", (value) => {
    expect(readFormFlash(value)).toBeNull();
  });

  it("ignores a field it does not know", () => {
    expect(readFormFlash(encodeURIComponent('{"email":"a@b.example","field":"name"}'))).toEqual({ email: "a@b.example", field: null });
  });
});
