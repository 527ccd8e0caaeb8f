import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "@/lib/config";
import { db } from "@/lib/database/db";
import { deliverDueEmails } from "@/lib/email/outbox";
import { createAccessToken } from "@/lib/access-tokens/issue-access-token";
import { randomId } from "@/lib/secrets";
import { changedTables, databaseFingerprint } from "../../helpers/hostile";
import {
  approve,
  changePasswordForm,
  newAccount,
  requestResetForm,
  resendVerificationForm,
  resetPasswordForm,
  SITE,
  sessionTokenOf,
  signIn,
  verifyEmailForm,
} from "../../helpers/forms";
import { inProcess } from "../../helpers/in-process";
import { createInit, PASSWORD } from "../../helpers/journey.mjs";
import { PEER_ADDRESS_HEADER } from "@/server/request-context.mjs";
import { linkToken, startTestSmtpServer, type TestMailbox } from "../../helpers/smtp";

// Account recovery and email confirmation through a real SMTP server (smtp-server, started
// here): the route handlers with a real database on SQLite and PostgreSQL, the outbox sending
// after each commit, the delivered message parsed and its link followed.

let mailbox: TestMailbox;

beforeAll(async () => {
  mailbox = await startTestSmtpServer();
  // Read once, at the first request (lib/config.ts): set before any.
  Object.assign(process.env, { SMTP_URL: mailbox.url, EMAIL_FROM: "initlink <login@initlink.test>" });
});

afterAll(async () => {
  await mailbox.close();
});

const NEW_PASSWORD = "a brand new passphrase";
const location = (response: Response) => response.headers.get("location");

/** Waits until the outbox has sent what it holds: the server has a message before the sender marks its row. */
async function outboxSent(): Promise<void> {
  const prisma = await db();
  for (let waited = 0; (await prisma.outboxEmail.count({ where: { outcome: null } })) > 0; waited++) {
    if (waited === 200) throw new Error("the outbox did not send its mail within 10 s");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function resetLink(email: string): Promise<string> {
  expect(location(await requestResetForm(email))).toBe(`${SITE}/forgot-password?sent=1`);
  const token = linkToken(await mailbox.next(email, "Set a new password"));
  await outboxSent();
  return token;
}

describe("Forgot password", () => {
  it("mails a link that sets a new password once: every session ends, the email is confirmed, the activity records it and a notice is mailed", async () => {
    const { email, token: session } = await newAccount();
    const prisma = await db();
    const user = await prisma.user.findUniqueOrThrow({ where: { email } });
    const token = await resetLink(email);
    await outboxSent();
    const [sent] = mailbox.messages.filter((message) => message.subject === "Set a new password for initlink" && message.text?.includes(token));
    expect(sent.text).toContain(`${SITE}/reset-password#token=${token}`);
    expect(sent.from?.text).toBe('"initlink" <login@initlink.test>');
    // The token is stored as its hash only, and the outbox forgets it once sent.
    const outbox = await prisma.outboxEmail.findMany({ where: { userId: user.id, kind: "reset_password" } });
    expect(outbox).toHaveLength(1);
    expect(outbox[0]).toMatchObject({ outcome: "sent", sealedToken: null });
    expect(JSON.stringify(await prisma.emailLink.findMany({ where: { userId: user.id } }))).not.toContain(token);

    // A new account's address was not confirmed: the reset confirms it.
    expect(location(await resetPasswordForm({ token, password: NEW_PASSWORD }))).toBe(`${SITE}/signin?reset=confirmed`);
    expect(await prisma.session.count({ where: { userId: user.id } })).toBe(0);
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).emailVerifiedAt).not.toBeNull();
    expect(await prisma.activityEvent.count({ where: { userId: user.id, kind: "password_reset" } })).toBe(1);
    const notice = await mailbox.next(email, "Your initlink password was changed");
    expect(notice.text).toContain("reset through a link sent to this address");
    expect(sessionTokenOf(await signIn({ email, password: PASSWORD }))).toBeNull();
    expect(sessionTokenOf(await signIn({ email, password: NEW_PASSWORD }))).not.toBeNull();
    // The old session's cookie is no way back in.
    expect(location(await changePasswordForm(session, { current_password: NEW_PASSWORD, new_password: "yet another passphrase" }))).toBe(`${SITE}/settings/password?error=unauthorized`);

    const before = await databaseFingerprint();
    expect(location(await resetPasswordForm({ token, password: "a third passphrase here" }))).toBe(`${SITE}/reset-password?error=email_link_used`);
    expect(changedTables(before, await databaseFingerprint(), ["RateLimit"])).toEqual([]);
  });

  it("answers an unknown email exactly as a known one, and writes and sends nothing", async () => {
    const { email } = await newAccount();
    const known = location(await requestResetForm(email));
    await mailbox.next(email, "Set a new password");
    await outboxSent();
    const unknown = `nobody-${Date.now()}@example.com`;
    const before = await databaseFingerprint();
    const received = mailbox.messages.length;
    expect(location(await requestResetForm(unknown))).toBe(known);
    await deliverDueEmails(config());
    expect(changedTables(before, await databaseFingerprint(), ["RateLimit"])).toEqual([]);
    expect(mailbox.messages.length).toBe(received);
  });

  it("voids the first link when a second is asked for; an expired link and a made-up token are refused, writing nothing", async () => {
    const { email } = await newAccount();
    const first = await resetLink(email);
    const second = await resetLink(email);
    const before = await databaseFingerprint();
    expect(location(await resetPasswordForm({ token: first, password: NEW_PASSWORD }))).toBe(`${SITE}/reset-password?error=email_link_voided`);
    expect(location(await resetPasswordForm({ token: "A".repeat(43), password: NEW_PASSWORD }))).toBe(`${SITE}/reset-password?error=email_link_invalid`);
    expect(changedTables(before, await databaseFingerprint(), ["RateLimit"])).toEqual([]);

    const prisma = await db();
    await prisma.emailLink.updateMany({ where: { email, purpose: "reset_password", voidedAt: null }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const expiredBefore = await databaseFingerprint();
    expect(location(await resetPasswordForm({ token: second, password: NEW_PASSWORD }))).toBe(`${SITE}/reset-password?error=email_link_expired`);
    expect(changedTables(expiredBefore, await databaseFingerprint(), ["RateLimit"])).toEqual([]);
  });

  it("sets the password once when 50 requests bring the same link at once", async () => {
    const { email } = await newAccount();
    const token = await resetLink(email);
    const answers = await Promise.all(Array.from({ length: 50 }, (_, index) => resetPasswordForm({ token, password: `concurrent passphrase ${index}` })));
    const won = answers.filter((answer) => location(answer) === `${SITE}/signin?reset=confirmed`);
    expect(won).toHaveLength(1);
    for (const answer of answers) expect([`${SITE}/signin?reset=confirmed`, `${SITE}/reset-password?error=email_link_used`, `${SITE}/reset-password?error=unavailable`]).toContain(location(answer));
    const prisma = await db();
    expect(await prisma.activityEvent.count({ where: { kind: "password_reset", user: { email } } })).toBe(1);
    const winner = answers.indexOf(won[0]);
    expect(sessionTokenOf(await signIn({ email, password: `concurrent passphrase ${winner}` }))).not.toBeNull();
  });

  it("ends every other way in when it confirms an address nobody had confirmed, and none when the address was confirmed", async () => {
    const prisma = await db();
    // Someone made the account with another's address and added their own ways in.
    const { email } = await newAccount();
    const user = await prisma.user.findUniqueOrThrow({ where: { email } });
    await prisma.passkey.create({ data: { id: randomId(), userId: user.id, credentialId: randomId(), publicKey: "key", counter: 0n, name: "squatter's key", createdAt: new Date() } });
    await prisma.passkeyApprovals.create({ data: { userId: user.id, createdAt: new Date() } });
    await prisma.federatedIdentity.create({ data: { id: randomId(), issuer: "https://login.example.com", subject: randomId(), userId: user.id, email: null, emailVerified: false, createdAt: new Date() } });
    const { token } = await createAccessToken(user.id, { name: "squatter's token", scope: "all", lifetime: "never" });
    expect(location(await resetPasswordForm({ token: await resetLink(email), password: NEW_PASSWORD }))).toBe(`${SITE}/signin?reset=confirmed`);
    expect(await prisma.passkey.count({ where: { userId: user.id } })).toBe(0);
    expect(await prisma.passkeyApprovals.count({ where: { userId: user.id } })).toBe(0);
    expect(await prisma.federatedIdentity.count({ where: { userId: user.id } })).toBe(0);
    expect(await prisma.accessToken.count({ where: { userId: user.id, revokedAt: null } })).toBe(0);
    expect(token).toMatch(/^ilat_/);

    // An address confirmed before: the reset ends the sessions only.
    const confirmed = await newAccount();
    const owner = await prisma.user.update({ where: { email: confirmed.email }, data: { emailVerifiedAt: new Date() } });
    await prisma.passkey.create({ data: { id: randomId(), userId: owner.id, credentialId: randomId(), publicKey: "key", counter: 0n, name: "laptop", createdAt: new Date() } });
    expect(location(await resetPasswordForm({ token: await resetLink(confirmed.email), password: NEW_PASSWORD }))).toBe(`${SITE}/signin?reset=1`);
    expect(await prisma.passkey.count({ where: { userId: owner.id } })).toBe(1);
  });

  it("sends nothing more past the account's mails an hour, and still answers the same", async () => {
    const { email } = await newAccount();
    const answers = [];
    for (let request = 0; request < 7; request++) answers.push(location(await requestResetForm(email)));
    expect(new Set(answers)).toEqual(new Set([`${SITE}/forgot-password?sent=1`]));
    const prisma = await db();
    // Sign-up's confirmation, then five resets: the account's five mails with a link an hour.
    expect(await prisma.emailLink.count({ where: { email, purpose: "reset_password" } })).toBe(5);
  });
});

describe("Confirming the email", () => {
  it("mails a link at sign-up that confirms the address once; a new link from the settings voids it", async () => {
    const { email, token: session } = await newAccount();
    const first = linkToken(await mailbox.next(email, "Confirm your email address"));
    expect(location(await resendVerificationForm(session))).toBe(`${SITE}/settings/email?sent=1`);
    const second = linkToken(await mailbox.next(email, "Confirm your email address"));
    expect(location(await verifyEmailForm({ token: first }))).toBe(`${SITE}/verify-email?error=email_link_voided`);
    const prisma = await db();
    expect((await prisma.user.findUniqueOrThrow({ where: { email } })).emailVerifiedAt).toBeNull();
    expect(location(await verifyEmailForm({ token: second }))).toBe(`${SITE}/verify-email?confirmed=1`);
    expect((await prisma.user.findUniqueOrThrow({ where: { email } })).emailVerifiedAt).not.toBeNull();
    expect(location(await verifyEmailForm({ token: second }))).toBe(`${SITE}/verify-email?error=email_link_used`);
    expect(location(await resendVerificationForm(session))).toBe(`${SITE}/settings/email?error=already_verified`);
  });
});

describe("The outbox", () => {
  it("tries a refused mail again later and sends it; a link replaced before it left is not sent", async () => {
    const { email } = await newAccount();
    await mailbox.next(email, "Confirm your email address");
    mailbox.refuseNext(1);
    expect(location(await requestResetForm(email))).toBe(`${SITE}/forgot-password?sent=1`);
    const prisma = await db();
    const row = async () => prisma.outboxEmail.findFirstOrThrow({ where: { to: email, kind: "reset_password" } });
    for (let waited = 0; (await row()).attempts === 0 && waited < 100; waited++) await new Promise((resolve) => setTimeout(resolve, 50));
    const refused = await row();
    expect(refused).toMatchObject({ attempts: 1, outcome: null });
    expect(refused.lastError).toContain("Try again later");
    expect(refused.lastError).not.toContain("mail-s3cret");
    expect(refused.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
    expect(await deliverDueEmails(config(), new Date(refused.nextAttemptAt.getTime() + 1))).toMatchObject({ sent: 1 });
    const token = linkToken(await mailbox.next(email, "Set a new password"));
    expect(location(await resetPasswordForm({ token, password: NEW_PASSWORD }))).toBe(`${SITE}/signin?reset=confirmed`);
  });

  it("drops a mail whose link was replaced before it could be sent", async () => {
    const { email } = await newAccount();
    await mailbox.next(email, "Confirm your email address");
    mailbox.refuseNext(1);
    await requestResetForm(email);
    const prisma = await db();
    const first = async () => prisma.outboxEmail.findFirstOrThrow({ where: { to: email, kind: "reset_password" }, orderBy: { createdAt: "asc" } });
    for (let waited = 0; (await first()).attempts === 0 && waited < 100; waited++) await new Promise((resolve) => setTimeout(resolve, 50));
    await requestResetForm(email);
    await mailbox.next(email, "Set a new password");
    const refused = await first();
    await deliverDueEmails(config(), new Date(refused.nextAttemptAt.getTime() + 1));
    expect(await first()).toMatchObject({ outcome: "dropped", lastError: "its link is no longer valid" });
    expect(mailbox.messages.filter((message) => JSON.stringify(message.to).includes(email) && message.subject?.startsWith("Set a new password"))).toHaveLength(1);
  });

  it("mails a notice of a password change", async () => {
    const { email, token } = await newAccount();
    expect(location(await changePasswordForm(token, { current_password: PASSWORD, new_password: NEW_PASSWORD }))).toBe(`${SITE}/settings/password?changed=1`);
    const notice = await mailbox.next(email, "Your initlink password was changed");
    expect(notice.text).toContain(`The password of your account ${email} was changed`);
  });
});

describe("Security notices", () => {
  const from = (address: string) => ({ [PEER_ADDRESS_HEADER]: address });

  it("mails a notice of an approval from another network than the client's, and none from the client's own", async () => {
    const { email, token } = await newAccount();
    const nearby = await createInit(inProcess, { sender: "@acme/nearby" }, from("198.51.100.7"));
    expect(location(await approve(nearby.id, token, { project: "new", name: "Nearby", code_confirmed: "yes" }, from("198.51.100.8")))).toBe(`${SITE}/init/${nearby.id}`);
    const far = await createInit(inProcess, { sender: "@acme/far", sender_device: "build box", user_code_shown: true }, from("198.51.100.7"));
    expect(location(await approve(far.id, token, { project: "new", name: "Far", user_code: far.user_code }, from("203.0.113.50")))).toBe(`${SITE}/init/${far.id}`);
    const notice = await mailbox.next(email, "A client was approved from another network");
    expect(notice.text).toContain("@acme/far on build box into the project Far");
    expect(notice.text).toContain("the approval came from 203.0.113.50");
    await outboxSent();
    const prisma = await db();
    expect(await prisma.outboxEmail.count({ where: { to: email, kind: "notice" } })).toBe(1);
  });
});
