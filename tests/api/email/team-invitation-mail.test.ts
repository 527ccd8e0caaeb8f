import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/database/db";
import { SITE } from "../../helpers/forms";
import { linkToken, startTestSmtpServer, type TestMailbox } from "../../helpers/smtp";
import { acceptInvitationForm, changeRoleForm, inviteForm, locationOf, newTeam, person, teamOfThree } from "../../helpers/teams";
import { newEmail } from "../../helpers/journey.mjs";

// A team invitation mailed through a real SMTP server (smtp-server, started here): written to
// the outbox in the invitation's transaction, sent after it, and its link joins the team. A
// refused invitation leaves no mail. The route handlers with a real database, SQLite and PostgreSQL.

let mailbox: TestMailbox;

beforeAll(async () => {
  mailbox = await startTestSmtpServer();
  // Read once, at the first request (lib/config.ts): set before any.
  Object.assign(process.env, { SMTP_URL: mailbox.url, EMAIL_FROM: "initlink <login@initlink.test>" });
});

afterAll(async () => {
  await mailbox.close();
});

describe("a mailed team invitation", () => {
  it("reaches the invited address with the link shown once, which joins the team", async () => {
    const owner = await person();
    const teamId = await newTeam(owner, "Mailed team");
    const invitee = await person();
    const answer = await inviteForm(owner.session, teamId, { email: invitee.email, role: "admin" });
    expect(answer.status).toBe(201);
    const shown = (await answer.json()) as { url: string; emailed: boolean };
    expect(shown.emailed).toBe(true);
    const mail = await mailbox.next(invitee.email, "Mailed team");
    expect(mail.text).toContain(`${SITE}/teams/join#token=`);
    const token = linkToken(mail);
    expect(shown.url).toBe(`${SITE}/teams/join#token=${token}`);
    expect(locationOf(await acceptInvitationForm(invitee.session, token))).toBe(`${SITE}/teams/${teamId}?joined=1`);
  });

  it("writes no mail for an invitation refused by the inviter's role", async () => {
    const { teamId, owner, admin } = await teamOfThree("No mail");
    expect(locationOf(await changeRoleForm(owner.session, teamId, admin.userId, "member"))).toContain("role_changed=1");
    const prisma = await db();
    const before = await prisma.outboxEmail.count();
    const email = newEmail("refused");
    expect((await inviteForm(admin.session, teamId, { email, role: "member" })).status).toBe(403);
    expect(await prisma.outboxEmail.count()).toBe(before);
    expect(await prisma.outboxEmail.count({ where: { to: email } })).toBe(0);
  });
});
