import { describe, expect, it } from "vitest";
import { sendFailure } from "@/lib/email/mail-transport";

// Why a mail was not sent goes to the outbox's row and the log: never SMTP_URL's password.

const mail = (smtpUrl: string) => ({ smtpUrl, from: "login@example.com", verificationRequired: false });

describe("sendFailure", () => {
  it("keeps the error's code and message, with the password cut out as written and decoded", () => {
    const error = Object.assign(new Error("Invalid login for p@ss and p%40ss"), { code: "EAUTH" });
    expect(sendFailure(error, mail("smtp://user:p%40ss@mail.example.com:587"))).toBe("EAUTH: Invalid login for *** and ***");
  });

  it("takes a password whose escapes are not valid UTF-8 as it is, rather than throwing", () => {
    expect(sendFailure(new Error("refused %zz"), mail("smtp://user:%zz@mail.example.com"))).toBe("refused ***");
  });
});
