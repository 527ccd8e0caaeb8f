import { beforeAll, describe, expect, it } from "vitest";
import { config } from "@/lib/config";
import { db } from "@/lib/database/db";
import { claimAccessToken } from "@/lib/init/token-pickup";
import { startLogin } from "@/lib/oauth/refresh-tokens";
import { hashSecret } from "@/lib/secrets";
import { createdInit } from "../../helpers/api";
import { approve, revokeLinkForm } from "../../helpers/forms";
import { createLink, linked, randomIv, withToken } from "../../helpers/links";
import { CLIENT_ID, deviceAuthorized, exchange, refresh } from "../../helpers/oauth";
import {
  addMembersDirectly,
  acceptInvitationForm,
  approvalError,
  approvedClientOf,
  changeRoleForm,
  formErrorOf,
  invited,
  newTeam,
  people,
  pickup,
  removeMemberForm,
  rolesIn,
  settingsToken,
  teamProject,
  type Person,
} from "../../helpers/teams";

// Fifty concurrent requests against each rule of docs/teams.md ("Races"), on SQLite and on
// PostgreSQL (READ COMMITTED) with TEST_POSTGRES_URL, and the rule holds exactly: a team never
// loses its last owner, an invitation makes one member, a removed member keeps nothing live in
// the team's projects, and a revocation succeeds only while the role allows it. Whoever wins a
// race is up to the database; what each answer says must match the rows afterwards.

const CONCURRENT = 50;

// Fifty accounts shared by the tests of this file (each test makes its own team of them): the
// races' subject is the change, not the signing up.
let crowd: Person[];
beforeAll(async () => {
  crowd = await people(CONCURRENT);
});

const eventsOf = async (teamId: string, kind: string) => (await db()).activityEvent.findMany({ where: { teamId, kind }, select: { userId: true, subjectId: true, memberEmail: true, role: true } });
const ownersOf = async (teamId: string) => Object.entries(await rolesIn(teamId)).flatMap(([userId, role]) => (role === "owner" ? [userId] : []));

/** A team made by `maker` through the form, with `owners` made owners directly beside them. */
async function teamOfOwners(maker: Person, owners: Person[]): Promise<string> {
  const teamId = await newTeam(maker, "Owners");
  await addMembersDirectly(teamId, owners.map((one) => one.userId), "owner");
  return teamId;
}

/** One turn of the event loop: what a request waits for between two of its database round trips. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Sends `requests` as overlapping clients would, each one turn of the event loop after the one
 * before (all are in flight together: each takes several turns), and `change` (what they race) at
 * `at` in that stream, so that it meets requests at every step of their way. Their answers, the
 * change's, and which requests had answered before the change was sent (those went through before it).
 */
async function raced<T, E>(requests: (() => Promise<T>)[], change: () => Promise<E>, at: number): Promise<{ answers: T[]; extra: E; answeredBefore: boolean[] }> {
  const answeredBefore = requests.map(() => false);
  let changeSent = false;
  let changed: Promise<E> | undefined;
  const answers: Promise<T>[] = [];
  for (const [index, request] of requests.entries()) {
    if (index === at) {
      changeSent = true;
      changed = change();
    }
    answers.push(
      request().finally(() => {
        answeredBefore[index] = !changeSent;
      }),
    );
    await turn();
  }
  changed ??= change();
  const [all, extra] = await Promise.all([Promise.all(answers), changed]);
  return { answers: all, extra, answeredBefore };
}

describe("role changes at once never leave a team without an owner", () => {
  it(`two owners demoting each other, ${CONCURRENT} requests at once: one stays owner, every request of the other is refused`, async () => {
    const [first, second] = crowd;
    for (let round = 0; round < 3; round++) {
      const teamId = await teamOfOwners(first, [second]);
      const demotions = Array.from({ length: CONCURRENT }, (_, i) => (i % 2 === 0 ? { actor: first, target: second } : { actor: second, target: first }));
      const errors = await Promise.all(demotions.map(async ({ actor, target }) => formErrorOf(await changeRoleForm(actor.session, teamId, target.userId, "member"))));

      const owners = await ownersOf(teamId);
      expect(owners).toHaveLength(1);
      const winner = owners[0];
      expect(await rolesIn(teamId)).toEqual({ [first.userId]: winner === first.userId ? "owner" : "member", [second.userId]: winner === second.userId ? "owner" : "member" });
      // The winner's every demotion went through (the loser is a member, demoted again);
      // the loser, no longer an owner by the time theirs ran, was refused for their role.
      demotions.forEach(({ actor }, i) => expect(errors[i]).toBe(actor.userId === winner ? null : "team_role_required"));
      const changes = await eventsOf(teamId, "member_role_changed");
      expect(changes).toHaveLength(CONCURRENT / 2);
      expect(new Set(changes.map((event) => event.userId))).toEqual(new Set([winner]));
    }
  });

  it(`${CONCURRENT} owners demoting themselves at once: exactly one stays, refused as the last owner`, async () => {
    const [maker, ...others] = crowd;
    const teamId = await teamOfOwners(maker, others);
    const errors = await Promise.all(crowd.map(async (owner) => formErrorOf(await changeRoleForm(owner.session, teamId, owner.userId, "member"))));
    expect(errors.filter((error) => error === null)).toHaveLength(CONCURRENT - 1);
    expect(errors.filter((error) => error === "last_owner")).toHaveLength(1);
    const owners = await ownersOf(teamId);
    expect(owners).toEqual([crowd[errors.indexOf("last_owner")].userId]);
    expect(await eventsOf(teamId, "member_role_changed")).toHaveLength(CONCURRENT - 1);
  });

  it(`${CONCURRENT} owners each demoting the next at once: at least one stays, and every answer matches the rows`, async () => {
    const [maker, ...others] = crowd;
    const teamId = await teamOfOwners(maker, others);
    const next = (i: number) => crowd[(i + 1) % CONCURRENT];
    const errors = await Promise.all(crowd.map(async (owner, i) => formErrorOf(await changeRoleForm(owner.session, teamId, next(i).userId, "member"))));
    const roles = await rolesIn(teamId);
    const owners = await ownersOf(teamId);
    expect(owners.length).toBeGreaterThanOrEqual(1);
    // Each target has one demoter: a member now exactly when its demoter's request went through.
    crowd.forEach((owner, i) => {
      expect(errors[i] === null ? "member" : "owner").toBe(roles[next(i).userId]);
      // A demoter still an owner demotes another owner, so never the last one: a refusal is for
      // the role the demoter had lost by then (and no one is promoted here).
      if (errors[i] !== null) {
        expect(errors[i]).toBe("team_role_required");
        expect(roles[owner.userId]).toBe("member");
      }
    });
    const changes = await eventsOf(teamId, "member_role_changed");
    expect(changes).toHaveLength(errors.filter((error) => error === null).length);
    expect(owners.length + changes.length).toBe(CONCURRENT);
  });
});

describe("an invitation accepted at once", () => {
  it(`by ${CONCURRENT} accounts (any email allowed) makes exactly one member`, async () => {
    const [owner] = await people(1);
    const teamId = await newTeam(owner, "Open door");
    const invitation = await invited(owner, teamId, "anyone@example.com", "admin", true);
    const errors = await Promise.all(crowd.map(async (who) => formErrorOf(await acceptInvitationForm(who.session, invitation.token))));
    expect(errors.filter((error) => error === null)).toHaveLength(1);
    expect(errors.filter((error) => error === "invitation_used")).toHaveLength(CONCURRENT - 1);
    const winner = crowd[errors.indexOf(null)];
    expect(await rolesIn(teamId)).toEqual({ [owner.userId]: "owner", [winner.userId]: "admin" });
    const prisma = await db();
    expect(await prisma.teamInvitation.findUniqueOrThrow({ where: { id: invitation.id }, select: { acceptedById: true } })).toEqual({ acceptedById: winner.userId });
    expect(await eventsOf(teamId, "member_joined")).toEqual([{ userId: winner.userId, subjectId: invitation.id, memberEmail: winner.email, role: "admin" }]);
  });
});

describe("a removal racing what the member does in the team's projects", () => {
  type Outcome = { kind: "approval" | "pickup" | "exchange" | "link"; ok: boolean; detail: string; token?: string; refreshToken?: string; linkId?: string };

  // The removal early, halfway and late in the stream of requests.
  for (const at of [5, 25, 45]) {
    it(`${CONCURRENT} approvals, pickups, device exchanges and new links of the member, the removal ${at}th among them: nothing of theirs stays live in the team's projects`, async () => {
      const [owner, member] = await people(2);
      const teamId = await newTeam(owner, "Racing");
      await addMembersDirectly(teamId, [member.userId], "member");
      const project = await teamProject(owner, teamId);
      const prisma = await db();

      // Before the race: inits to approve, inits approved and not yet collected, device codes
      // approved and not yet exchanged, and the member's tokens to link with.
      const [pending, approved, devices, client, everyProject] = await Promise.all([
        Promise.all(Array.from({ length: 13 }, () => createdInit())),
        Promise.all(
          Array.from({ length: 13 }, async () => {
            const init = await createdInit();
            const error = await approvalError(init.id, member, { project });
            if (error !== null) throw new Error(error);
            return init;
          }),
        ),
        Promise.all(
          Array.from({ length: 12 }, async () => {
            const device = await deviceAuthorized();
            const error = formErrorOf(await approve(device.initId, member.session, { project, user_code: device.user_code }));
            if (error !== null) throw new Error(error);
            return device;
          }),
        ),
        approvedClientOf(member, project),
        settingsToken(member, "all"),
      ]);
      const linkTokens = [client.accessToken, everyProject.token];

      const requests: (() => Promise<Outcome>)[] = [];
      for (let i = 0; i < 13; i++) {
        requests.push(async () => {
          const error = await approvalError(pending[i].id, member, { project });
          return { kind: "approval", ok: error === null, detail: error ?? "approved" };
        });
        requests.push(async () => {
          const answer = await pickup(approved[i]);
          return { kind: "pickup", ok: answer.access_token !== undefined, detail: answer.status, token: answer.access_token };
        });
        if (i < 12) {
          requests.push(async () => {
            const response = await exchange(devices[i].device_code);
            const body = (await response.json()) as { access_token?: string; refresh_token?: string; error?: string };
            return { kind: "exchange", ok: response.status === 200, detail: body.error ?? String(response.status), token: body.access_token, refreshToken: body.refresh_token };
          });
          requests.push(async () => {
            const response = await createLink(project, randomIv(), withToken(linkTokens[i % 2]));
            const body = (await response.json()) as { link_id?: string; code?: string };
            return { kind: "link", ok: response.status === 200, detail: body.code ?? String(response.status), linkId: body.link_id };
          });
        }
      }
      expect(requests).toHaveLength(CONCURRENT);
      const { answers, extra: removal, answeredBefore } = await raced(requests, () => removeMemberForm(owner.session, teamId, member.userId), at);
      expect(formErrorOf(removal)).toBeNull();
      // What had answered before the removal was sent had gone through: the member was in the team.
      answers.forEach((answer, i) => {
        if (answeredBefore[i]) expect(answer).toMatchObject({ ok: true });
      });
      expect(await rolesIn(teamId)).toEqual({ [owner.userId]: "owner" });

      // Each refusal is the one its kind gets from a person out of the team.
      for (const answer of answers.filter((one) => !one.ok)) {
        const expected = { approval: ["not_found"], pickup: ["denied"], exchange: ["access_denied"], link: ["not_found", "invalid_token"] }[answer.kind];
        expect(expected).toContain(answer.detail);
      }
      // An approval that went through landed before the removal; one refused left its init pending.
      const approvals = answers.filter((one) => one.kind === "approval");
      const states = await prisma.init.findMany({ where: { id: { in: pending.map((init) => init.id) } }, select: { id: true, status: true, approvedById: true } });
      expect(states.filter((init) => init.status === "done")).toHaveLength(approvals.filter((one) => one.ok).length);
      expect(states.filter((init) => init.status === "pending")).toHaveLength(approvals.filter((one) => !one.ok).length);

      // Nothing of the member's stays live in the team's project: every token, login and link
      // made before the removal was revoked by it, and none was made after.
      expect(await prisma.accessToken.count({ where: { userId: member.userId, projectId: project, revokedAt: null } })).toBe(0);
      expect(await prisma.oAuthLogin.count({ where: { userId: member.userId, projectId: project, revokedAt: null } })).toBe(0);
      expect(await prisma.projectLink.count({ where: { projectId: project, revokedAt: null } })).toBe(0);
      // The token for every project is no project's: it stays, reaching nothing of the team.
      expect((await prisma.accessToken.findUniqueOrThrow({ where: { tokenHash: hashSecret(everyProject.token) } })).revokedAt).toBeNull();

      // Each revocation is an event of the removal in the owner's activity.
      const revokedTokens = await prisma.accessToken.findMany({ where: { userId: member.userId, projectId: project }, select: { id: true } });
      const revokedLinks = await prisma.projectLink.findMany({ where: { projectId: project }, select: { id: true } });
      const subjects = async (kind: string) => (await prisma.activityEvent.findMany({ where: { userId: owner.userId, teamId, kind }, select: { subjectId: true } })).map((event) => event.subjectId).sort();
      const tokenEvents = await subjects("access_token_revoked");
      expect(tokenEvents).toEqual(expect.arrayContaining(revokedTokens.map((token) => token.id)));
      // A pickup or exchange makes its token unseen, then claims it: one the removal revoked in
      // between is then deleted by the claim it lost (lib/init/token-pickup.ts). Its event stays,
      // naming a token no client ever held; every other event names a row still there.
      const handedOut = await prisma.accessToken.findMany({ where: { tokenHash: { in: answers.flatMap((one) => (one.ok && one.token !== undefined ? [hashSecret(one.token)] : [])) } }, select: { id: true } });
      expect(handedOut).toHaveLength(answers.filter((one) => one.ok && one.token !== undefined).length);
      expect(tokenEvents).toEqual(expect.arrayContaining(handedOut.map((token) => token.id)));
      expect(await prisma.accessToken.count({ where: { id: { in: tokenEvents.filter((id) => !revokedTokens.some((token) => token.id === id)) } } })).toBe(0);
      expect(await subjects("link_revoked")).toEqual(revokedLinks.map((link) => link.id).sort());
      expect(revokedLinks.map((link) => link.id).sort()).toEqual(answers.flatMap((one) => (one.ok && one.linkId !== undefined ? [one.linkId] : [])).sort());

      // What the clients were handed before the removal no longer works.
      for (const answer of answers.filter((one) => one.ok && one.token !== undefined)) {
        expect((await createLink(project, randomIv(), withToken(answer.token ?? ""))).status).toBe(401);
        if (answer.refreshToken !== undefined) expect((await refresh(answer.refreshToken)).status).toBe(400);
      }
      // An approval that landed before the removal gives its client nothing now.
      for (const init of pending.filter((one) => states.find((state) => state.id === one.id)?.status === "done")) {
        const late = await pickup(init);
        expect(late.access_token).toBeUndefined();
        expect(late.status).toBe("denied");
      }
      expect(await prisma.accessToken.count({ where: { userId: member.userId, projectId: project, revokedAt: null } })).toBe(0);
    });
  }
});

describe("a removal between a device-code exchange's two steps", () => {
  // The exchange claims the access token (lib/init/token-pickup.ts), then starts the OAuth login
  // (lib/oauth/refresh-tokens.ts) in a transaction of its own: the race above may or may not put
  // the removal between them, so here it is put there, calling the two steps as the exchange does.
  it("refuses the login: the removed member holds no live login and no live token into the team's project", async () => {
    const [owner, member] = await people(2);
    const teamId = await newTeam(owner, "Between");
    await addMembersDirectly(teamId, [member.userId], "member");
    const project = await teamProject(owner, teamId);
    const device = await deviceAuthorized();
    expect(formErrorOf(await approve(device.initId, member.session, { project, user_code: device.user_code }))).toBeNull();
    const expiresAt = new Date(Date.now() + 3_600_000);
    const origin = { address: "127.0.0.1", userAgent: "acme-cli/1.0" };
    const approval = { initId: device.initId, sender: "@acme/cli", senderDevice: null, projectId: project, approvedById: member.userId, accessLifetimeSeconds: null, dpopJkt: null };
    const issued = await claimAccessToken(approval, origin, expiresAt);
    if (typeof issued === "string") throw new Error(`the claim answered ${issued}`);

    expect(formErrorOf(await removeMemberForm(owner.session, teamId, member.userId))).toBeNull();
    await expect(
      startLogin(config(), { clientId: CLIENT_ID, initId: device.initId, userId: member.userId, projectId: project, accessTokenId: issued.id, startedAt: Date.now(), expiresAt, dpopJkt: null }),
    ).rejects.toMatchObject({ code: "access_denied" });
    const prisma = await db();
    expect(await prisma.oAuthLogin.findMany({ where: { userId: member.userId }, select: { revokedReason: true } })).toEqual([{ revokedReason: "removal" }]);
    expect(await prisma.accessToken.count({ where: { userId: member.userId, projectId: project, revokedAt: null } })).toBe(0);
  });
});

describe("a demotion racing the admin's revocations", () => {
  /** A team with an owner and an admin, a project, and `count` live links the owner's token made. */
  async function linksOfTheOwner(count: number) {
    const [owner, admin, member] = await people(3);
    const teamId = await newTeam(owner, "Links");
    await addMembersDirectly(teamId, [admin.userId], "admin");
    await addMembersDirectly(teamId, [member.userId], "member");
    const project = await teamProject(owner, teamId);
    const client = await approvedClientOf(owner, project);
    const links = await Promise.all(Array.from({ length: count }, () => linked(project, client.accessToken)));
    return { owner, admin, member, teamId, project, linkIds: links.map((link) => link.link_id) };
  }

  for (const at of [10, 25, 40]) {
    it(`admin→member ${at}th among ${CONCURRENT} revocations of others' links: each revocation went through while they were admin, or was refused`, async () => {
      const { owner, admin, teamId, project, linkIds } = await linksOfTheOwner(CONCURRENT);
      const revocations = linkIds.map((linkId) => async () => formErrorOf(await revokeLinkForm(admin.session, project, linkId)));
      const { answers, extra: change, answeredBefore } = await raced(revocations, () => changeRoleForm(owner.session, teamId, admin.userId, "member"), at);
      expect(formErrorOf(change)).toBeNull();
      // Those answered before the change was sent were revoked by an admin.
      expect(answers.filter((error, i) => answeredBefore[i] && error !== null)).toEqual([]);
      expect((await rolesIn(teamId))[admin.userId]).toBe("member");

      expect(answers.every((error) => error === null || error === "team_role_required")).toBe(true);
      const prisma = await db();
      const rows = await prisma.projectLink.findMany({ where: { id: { in: linkIds } }, select: { id: true, revokedAt: true } });
      const revoked = new Set(rows.filter((link) => link.revokedAt !== null).map((link) => link.id));
      // Exactly the revocations answered as done are revoked, each an event in the admin's name.
      expect([...revoked].sort()).toEqual(linkIds.filter((_, i) => answers[i] === null).sort());
      const events = await prisma.activityEvent.findMany({ where: { kind: "link_revoked", subjectId: { in: linkIds } }, select: { userId: true, subjectId: true, teamId: true } });
      expect(events.map((event) => event.subjectId).sort()).toEqual([...revoked].sort());
      expect(events.every((event) => event.userId === admin.userId && event.teamId === teamId)).toBe(true);

      // Now a member: every link of another's that is left is refused.
      const left = linkIds.filter((id) => !revoked.has(id));
      const again = await Promise.all(left.map(async (linkId) => formErrorOf(await revokeLinkForm(admin.session, project, linkId))));
      expect(again).toEqual(left.map(() => "team_role_required"));
      expect(await prisma.projectLink.count({ where: { id: { in: left }, revokedAt: null } })).toBe(left.length);
    });
  }

  it(`a member's ${CONCURRENT - 1} revocations of another's link racing an admin's: the admin's revokes it, and none is recorded in the member's name`, async () => {
    const { admin, member, project, linkIds } = await linksOfTheOwner(1);
    const [linkId] = linkIds;
    const attempts = Array.from({ length: CONCURRENT - 1 }, () => async () => formErrorOf(await revokeLinkForm(member.session, project, linkId)));
    const { answers, extra } = await raced(attempts, async () => formErrorOf(await revokeLinkForm(admin.session, project, linkId)), 0);
    expect(extra).toBeNull();
    // A member's attempt is refused, or finds the link revoked already (nothing left to do).
    expect(answers.every((error) => error === null || error === "team_role_required")).toBe(true);
    const prisma = await db();
    expect((await prisma.projectLink.findUniqueOrThrow({ where: { id: linkId } })).revokedAt).not.toBeNull();
    expect(await prisma.activityEvent.findMany({ where: { kind: "link_revoked", subjectId: linkId }, select: { userId: true } })).toEqual([{ userId: admin.userId }]);
  });
});
