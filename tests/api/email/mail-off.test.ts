import { describe, expect, it } from "vitest";
import { db } from "@/lib/database/db";
import { changePasswordForm, newAccount, requestResetForm, resendVerificationForm, SITE } from "../../helpers/forms";
import { changedTables, databaseFingerprint } from "../../helpers/hostile";
import { PASSWORD } from "../../helpers/journey.mjs";

// Without SMTP_URL initlink sends nothing (lib/email/): no password reset or confirmation is
// offered, and what would send a mail queues none.

describe("without a mail server", () => {
  it("refuses a reset request and a new confirmation link with mail_off, writing nothing", async () => {
    const { email, token } = await newAccount();
    const before = await databaseFingerprint();
    expect((await requestResetForm(email)).headers.get("location")).toBe(`${SITE}/forgot-password?error=mail_off`);
    expect((await resendVerificationForm(token)).headers.get("location")).toBe(`${SITE}/settings/email?error=mail_off`);
    expect(changedTables(before, await databaseFingerprint())).toEqual([]);
  });

  it("queues no mail for a sign-up or a password change", async () => {
    const { token } = await newAccount();
    expect((await changePasswordForm(token, { current_password: PASSWORD, new_password: "another good passphrase" })).headers.get("location")).toBe(`${SITE}/settings/password?changed=1`);
    const prisma = await db();
    expect(await prisma.emailLink.count()).toBe(0);
    expect(await prisma.outboxEmail.count()).toBe(0);
  });
});
