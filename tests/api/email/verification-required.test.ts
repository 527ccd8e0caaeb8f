import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/database/db";
import { createdInit } from "../../helpers/api";
import { approve, newAccount, SITE, verifyEmailForm } from "../../helpers/forms";
import { changedTables, databaseFingerprint } from "../../helpers/hostile";
import { linkToken, startTestSmtpServer, type TestMailbox } from "../../helpers/smtp";

// EMAIL_VERIFICATION=required: an account approves nothing until it has followed the link
// mailed to its address (lib/auth/email-verification.ts). A real SMTP server delivers the link.

let mailbox: TestMailbox;

beforeAll(async () => {
  mailbox = await startTestSmtpServer();
  Object.assign(process.env, { SMTP_URL: mailbox.url, EMAIL_FROM: "login@initlink.test", EMAIL_VERIFICATION: "required" });
});

afterAll(async () => {
  await mailbox.close();
});

const APPROVE_NEW = { project: "new", name: "My app", code_confirmed: "yes" };

describe("EMAIL_VERIFICATION=required", () => {
  it("refuses an approval with email_unverified, writing nothing, until the mailed link is followed", async () => {
    const { email, token } = await newAccount();
    const mail = await mailbox.next(email, "Confirm your email address");
    const init = await createdInit();
    const prisma = await db();
    for (let waited = 0; (await prisma.outboxEmail.count({ where: { outcome: null } })) > 0 && waited < 200; waited++) await new Promise((resolve) => setTimeout(resolve, 50));
    const before = await databaseFingerprint();
    const refused = await approve(init.id, token, APPROVE_NEW);
    expect(refused.headers.get("location")).toBe(`${SITE}/init/${init.id}?error=email_unverified`);
    expect(changedTables(before, await databaseFingerprint(), ["RateLimit"])).toEqual([]);

    expect((await verifyEmailForm({ token: linkToken(mail) })).headers.get("location")).toBe(`${SITE}/verify-email?confirmed=1`);
    expect((await approve(init.id, token, APPROVE_NEW)).headers.get("location")).toBe(`${SITE}/init/${init.id}`);
    expect((await prisma.init.findUniqueOrThrow({ where: { id: init.id } })).status).toBe("done");
  });
});
