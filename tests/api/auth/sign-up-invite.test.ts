import { beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "@/lib/auth/passwords";
import { config } from "@/lib/config";
import { db } from "@/lib/database/db";
import { randomId } from "@/lib/secrets";
import { sessionTokenOf, signIn, signUp } from "../../helpers/forms";
import { databaseFingerprint } from "../../helpers/hostile";
import { newEmail, PASSWORD } from "../../helpers/journey.mjs";
import { acceptInvitationForm, invited, locationOf, newTeam, revokeInvitationForm, type Person } from "../../helpers/teams";

// SIGN_UP=invite (lib/auth/account-policy.ts): a password sign-up goes through only with an open
// team invitation that its email may accept, carried by the form as the invitation page keeps it;
// the person then joins on that page. The route handlers with a real database, on SQLite and PostgreSQL.

beforeAll(() => {
  // Read once, at the first request (lib/config.ts): set before any.
  process.env.SIGN_UP = "invite";
});

/** An account made before sign-up closed, signed in: the team's owner. */
async function owner(): Promise<Person> {
  const email = newEmail("invite-owner");
  const userId = randomId();
  await (await db()).user.create({ data: { id: userId, email, passwordHash: await hashPassword(config(), PASSWORD), createdAt: new Date() } });
  const session = sessionTokenOf(await signIn({ email, password: PASSWORD }));
  if (session === null) throw new Error("the owner's sign-in failed");
  return { email, session, userId };
}

const closed = "https://initlink.test/signup?returnTo=%2Fteams%2Fjoin&error=sign_up_closed";

describe("SIGN_UP=invite", () => {
  it("refuses a sign-up without an invitation, with another address's, or with a revoked one, and writes nothing", async () => {
    const inviter = await owner();
    const teamId = await newTeam(inviter);
    const invitation = await invited(inviter, teamId, newEmail("invited"), "member");
    const revoked = await invited(inviter, teamId, newEmail("revoked"), "member");
    expect((await revokeInvitationForm(inviter.session, teamId, revoked.id)).status).toBe(303);
    const attempts: Record<string, string>[] = [
      { email: newEmail("uninvited"), password: PASSWORD },
      { email: newEmail("uninvited"), password: PASSWORD, invitation: invitation.token },
      { email: newEmail("uninvited"), password: PASSWORD, invitation: "x".repeat(43) },
      { email: (await (await db()).teamInvitation.findUniqueOrThrow({ where: { id: revoked.id } })).email, password: PASSWORD, invitation: revoked.token },
    ];
    for (const fields of attempts) {
      const before = await databaseFingerprint();
      const response = await signUp(fields, "?returnTo=%2Fteams%2Fjoin");
      expect(response.headers.get("location")).toBe(closed);
      expect(sessionTokenOf(response)).toBeNull();
      expect(await databaseFingerprint()).toEqual(before);
    }
  });

  it("makes the account of the address invited, who then joins with the same link", async () => {
    const inviter = await owner();
    const teamId = await newTeam(inviter);
    const email = newEmail("invited");
    const invitation = await invited(inviter, teamId, email, "admin");
    const response = await signUp({ email, password: PASSWORD, invitation: invitation.token }, "?returnTo=%2Fteams%2Fjoin");
    expect(response.headers.get("location")).toBe("https://initlink.test/teams/join");
    const session = sessionTokenOf(response);
    expect(session).not.toBeNull();
    // Signed up, not yet a member: joining is the invitation page's own step.
    const prisma = await db();
    const user = await prisma.user.findUniqueOrThrow({ where: { email } });
    expect(await prisma.teamMember.count({ where: { teamId, userId: user.id } })).toBe(0);
    expect(locationOf(await acceptInvitationForm(session ?? "", invitation.token))).toBe(`https://initlink.test/teams/${teamId}?joined=1`);
    expect((await prisma.teamMember.findUniqueOrThrow({ where: { teamId_userId: { teamId, userId: user.id } } })).role).toBe("admin");
  });

  it("lets any address sign up with an invitation the admin opened to any account", async () => {
    const inviter = await owner();
    const teamId = await newTeam(inviter);
    const invitation = await invited(inviter, teamId, newEmail("named"), "member", true);
    const response = await signUp({ email: newEmail("someone-else"), password: PASSWORD, invitation: invitation.token });
    expect(sessionTokenOf(response)).not.toBeNull();
  });
});
