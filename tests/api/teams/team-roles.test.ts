import { createLocalJWKSet, decodeJwt, jwtVerify } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/database/db";
import { ERRORS } from "@/lib/errors";
import { findReachableProject, listProjects } from "@/lib/projects/projects";
import { listProjectLinks } from "@/lib/links/manage-links";
import { hashSecret, randomId } from "@/lib/secrets";
import { memberApprovals } from "@/lib/teams/membership";
import { listTeamActivity } from "@/lib/teams/team-activity-list";
import { listTeams, teamView } from "@/lib/teams/teams";
import { createdInit } from "../../helpers/api";
import { approve, createTokenForm, renameProjectForm, revokeLinkForm, SITE } from "../../helpers/forms";
import { changedTables, databaseFingerprint } from "../../helpers/hostile";
import { createLink, getProject, linked, publishedJwks, randomIv, withToken } from "../../helpers/links";
import { deviceAuthorized, exchange, introspect, refresh, tokensOf } from "../../helpers/oauth";
import {
  acceptInvitationForm,
  added,
  approvalError,
  approvedClientOf,
  changeRoleForm,
  deleteTeamForm,
  formErrorOf,
  invited,
  inviteForm,
  joined,
  locationOf,
  moveProjectForm,
  newTeam,
  person,
  personalProject,
  removeMemberForm,
  renameTeamForm,
  revokeInvitationForm,
  rolesIn,
  settingsToken,
  teamOfThree,
  teamProject,
  type CreatedInit,
  type Person,
  type TeamOfThree,
} from "../../helpers/teams";

// The role table of docs/teams.md, both ways, through the real route handlers and database (on
// SQLite, and on PostgreSQL with TEST_POSTGRES_URL): what each role may do, done; what it may
// not, refused with its code and writing nothing. Then invitations, removal (what the removed
// member approved into the team's projects is revoked in the same request), and the team_id a
// client and a resource server learn. The races: team-races.test.ts.

// Each refusal's HTTP status (docs/teams.md). A form's refusal is a 303 back to its page with
// ?error=<code>; the JSON routes (the invite form, the new-token form, Create Project Link) answer
// the status itself.
const STATUS = {
  team_role_required: 403,
  last_owner: 409,
  not_found: 404,
  team_has_projects: 409,
  already_member: 409,
  invitation_used: 410,
  invitation_revoked: 410,
  invitation_expired: 410,
  invitation_invalid: 400,
  invitation_email_mismatch: 403,
  invalid_request: 400,
} as const;
type Refusal = keyof typeof STATUS;

/** A form refused with `code`, back on `page` when given. */
function expectRefused(response: Response, code: Refusal, page?: string): void {
  expect(response.status).toBe(303);
  const location = new URL(locationOf(response) ?? "", SITE);
  expect(location.searchParams.get("error")).toBe(code);
  if (page !== undefined) expect(`${location.origin}${location.pathname}`).toBe(`${SITE}${page}`);
  expect(ERRORS[code].status).toBe(STATUS[code]);
}

/** A JSON route refused with `code`, and its status. */
async function expectJsonRefused(response: Response, code: Refusal): Promise<void> {
  expect({ status: response.status, code: ((await response.json()) as { code?: string }).code }).toEqual({ status: STATUS[code], code });
}

/** Every row of the teams' tables, to show that a refusal changed none. */
async function teamRows() {
  const prisma = await db();
  return {
    teams: await prisma.team.findMany({ orderBy: { id: "asc" } }),
    members: await prisma.teamMember.findMany({ orderBy: [{ teamId: "asc" }, { userId: "asc" }] }),
    invitations: await prisma.teamInvitation.findMany({ orderBy: { id: "asc" } }),
  };
}

/** Runs `refusals` and checks that they wrote nothing: no row of any table, no activity event. */
async function writesNothing(refusals: () => Promise<void>): Promise<void> {
  const before = await databaseFingerprint();
  const teamsBefore = await teamRows();
  const events = await (await db()).activityEvent.count();
  await refusals();
  expect(changedTables(before, await databaseFingerprint())).toEqual([]);
  expect(await teamRows()).toEqual(teamsBefore);
  expect(await (await db()).activityEvent.count()).toBe(events);
}

const tokenRow = async (token: string) => (await db()).accessToken.findUniqueOrThrow({ where: { tokenHash: hashSecret(token) } });
const linkRow = async (id: string) => (await db()).projectLink.findUniqueOrThrow({ where: { id } });
const projectRow = async (id: string) => (await db()).project.findUniqueOrThrow({ where: { id } });
const eventsOf = async (userId: string, kind: string) => (await db()).activityEvent.findMany({ where: { userId, kind }, orderBy: { occurredAt: "asc" } });

/** Pending inits, made before a check that nothing is written. */
const pendingInits = (count: number) => Promise.all(Array.from({ length: count }, () => createdInit()));

/** `who` approves the pending `init` into `fields.project` (an id, or "new"): the error, or null; a refused init stays pending. */
async function approvalOf(init: CreatedInit, who: Person, fields: Record<string, string>): Promise<string | null> {
  const error = await approvalError(init.id, who, fields);
  const { status } = await (await db()).init.findUniqueOrThrow({ where: { id: init.id }, select: { status: true } });
  expect(status).toBe(error === null ? "done" : "pending");
  return error;
}

describe("making a team and joining it", () => {
  it("makes the team with its maker as its owner; an invitation's link carries its token in the fragment, kept as its hash; joining gives the invited role", async () => {
    const [owner, admin, member] = await Promise.all([person(), person(), person()]);
    const teamId = await newTeam(owner, "Platform");
    expect(await rolesIn(teamId)).toEqual({ [owner.userId]: "owner" });

    const response = await inviteForm(owner.session, teamId, { email: admin.email, role: "admin" });
    expect(response.status).toBe(201);
    const answer = (await response.json()) as { id: string; url: string; emailed: boolean };
    expect(Object.keys(answer).sort()).toEqual(["emailed", "id", "url"]);
    // No mail server here: the link is shown once, not mailed.
    expect(answer.emailed).toBe(false);
    const token = /^https:\/\/initlink\.test\/teams\/join#token=([A-Za-z0-9_-]{43})$/.exec(answer.url)?.[1] ?? "";
    expect(token).toHaveLength(43);
    const prisma = await db();
    const stored = await prisma.teamInvitation.findUniqueOrThrow({ where: { id: answer.id } });
    expect(stored).toMatchObject({ teamId, email: admin.email, role: "admin", anyEmail: false, tokenHash: hashSecret(token), invitedBy: owner.email, acceptedAt: null, revokedAt: null });
    expect(JSON.stringify(await prisma.teamInvitation.findMany())).not.toContain(token);

    expect(locationOf(await acceptInvitationForm(admin.session, token))).toBe(`${SITE}/teams/${teamId}?joined=1`);
    await added(admin, teamId, member, "member");
    expect(await rolesIn(teamId)).toEqual({ [owner.userId]: "owner", [admin.userId]: "admin", [member.userId]: "member" });
    expect(await prisma.teamInvitation.findUniqueOrThrow({ where: { id: answer.id } })).toMatchObject({ acceptedById: admin.userId, acceptedAt: expect.any(Date) });

    // Each step an event of the team, in the activity of whoever acted.
    const events = await prisma.activityEvent.findMany({ where: { teamId }, select: { userId: true, kind: true, memberEmail: true, role: true, teamName: true } });
    expect(events).toHaveLength(5);
    expect(events).toEqual(
      expect.arrayContaining([
        { userId: owner.userId, kind: "team_created", memberEmail: null, role: null, teamName: "Platform" },
        { userId: owner.userId, kind: "member_invited", memberEmail: admin.email, role: "admin", teamName: "Platform" },
        { userId: admin.userId, kind: "member_joined", memberEmail: admin.email, role: "admin", teamName: "Platform" },
        { userId: admin.userId, kind: "member_invited", memberEmail: member.email, role: "member", teamName: "Platform" },
        { userId: member.userId, kind: "member_joined", memberEmail: member.email, role: "member", teamName: "Platform" },
      ]),
    );
    expect((await listTeams(member.userId)).map(({ id, role, members, projects }) => ({ id, role, members, projects }))).toEqual([{ id: teamId, role: "member", members: 3, projects: 0 }]);
  });
});

describe("the role table", () => {
  // One team for the checks that leave it as it is; the tests that change its members make their own.
  let team: TeamOfThree;
  let project: string;
  let openInvitation: string;
  let ownerClient: Awaited<ReturnType<typeof approvedClientOf>>;

  beforeAll(async () => {
    team = await teamOfThree();
    project = await teamProject(team.owner, team.teamId);
    [ownerClient, openInvitation] = await Promise.all([approvedClientOf(team.owner, project), invited(team.owner, team.teamId, "someone-invited@example.com", "member").then((made) => made.id)]);
  });

  describe("a member", () => {
    it("sees the team and its projects, approves a client into a team project and makes tokens for it; team_id reaches the client and introspection", async () => {
      const { teamId, owner, member } = team;
      const view = await teamView(member.userId, teamId);
      expect(view).toMatchObject({ id: teamId, name: "Platform", role: "member", projects: [{ id: project, name: "Shared" }], invitations: [] });
      expect(Object.fromEntries(view.members.map(({ userId, role }) => [userId, role]))).toEqual({ [owner.userId]: "owner", [team.admin.userId]: "admin", [member.userId]: "member" });
      expect((await listProjects(member.userId)).map(({ id, team: its }) => ({ id, team: its }))).toEqual([{ id: project, team: { id: teamId, name: "Platform", role: "member" } }]);
      expect(await findReachableProject(member.userId, project)).toMatchObject({ id: project, team: { id: teamId, role: "member" } });

      // The pickup names the project's team (and null for a personal project).
      const client = await approvedClientOf(member, project);
      expect(client.pickup.project).toEqual({ id: project, name: "Shared", team_id: teamId });
      const own = await approvedClientOf(member, await personalProject(member));
      expect(own.pickup.project?.team_id).toBeNull();

      // The link bearer's claims, verified with the published keys.
      const link = await linked(project, client.accessToken);
      const { payload } = await jwtVerify(link.jwt, createLocalJWKSet((await publishedJwks()) as Parameters<typeof createLocalJWKSet>[0]), {
        issuer: SITE,
        audience: `${SITE}/api/projects/${project}`,
      });
      expect(payload).toMatchObject({ project_id: project, team_id: teamId, account_id: member.userId, sub: link.link_id });
      expect(decodeJwt((await linked(own.pickup.project?.id ?? "", own.accessToken)).jwt)).not.toHaveProperty("team_id");

      // Introspection by the owner's token for all their projects: the team's project is one.
      const ownerAll = await settingsToken(owner, "all");
      for (const token of [client.accessToken, link.jwt]) {
        expect(await introspect(token, ownerAll.token)).toMatchObject({ active: true, project_id: project, team_id: teamId, account_id: member.userId });
      }
      expect(await introspect(own.accessToken, (await settingsToken(member, "all")).token)).not.toHaveProperty("team_id");

      // A token of their own for the team's project, from the settings page.
      const made = await settingsToken(member, project);
      expect(await tokenRow(made.token)).toMatchObject({ userId: member.userId, projectId: project, revokedAt: null });

      // The project's page lists every link; the member may revoke their own only.
      const links = await listProjectLinks(member.userId, project);
      expect(links.find((one) => one.id === link.link_id)?.revocable).toBe(true);
      const ownersLink = await linked(project, ownerClient.accessToken);
      expect((await listProjectLinks(member.userId, project)).find((one) => one.id === ownersLink.link_id)?.revocable).toBe(false);
    });

    it("revokes a link its own token made, and is refused another's (team_role_required), writing nothing", async () => {
      const { teamId, member } = team;
      const mine = await linked(project, (await approvedClientOf(member, project)).accessToken);
      const theirs = await linked(project, ownerClient.accessToken);
      await writesNothing(async () => {
        expectRefused(await revokeLinkForm(member.session, project, theirs.link_id), "team_role_required", `/projects/${project}`);
      });
      expect((await linkRow(theirs.link_id)).revokedAt).toBeNull();
      expect((await getProject(project, { authorization: theirs.bearer })).status).toBe(200);

      expect(locationOf(await revokeLinkForm(member.session, project, mine.link_id))).toBe(`${SITE}/projects/${project}?revoked=${mine.link_id}`);
      expect((await linkRow(mine.link_id)).revokedAt).not.toBeNull();
      expect((await getProject(project, { authorization: mine.bearer })).status).toBe(401);
      const [event] = (await eventsOf(member.userId, "link_revoked")).filter((one) => one.subjectId === mine.link_id);
      expect(event).toMatchObject({ projectId: project, teamId, decidedBy: member.email });
    });

    it("may not invite, revoke invitations, remove, change roles, rename or delete the team, make or rename its projects, move a project in, or see its activity; each refusal writes nothing", async () => {
      const { teamId, owner, admin, member } = team;
      const [personal, [init]] = await Promise.all([personalProject(member), pendingInits(1)]);
      const team_ = `/teams/${teamId}`;
      await writesNothing(async () => {
        for (const role of ["member", "admin", "owner"] as const) {
          await expectJsonRefused(await inviteForm(member.session, teamId, { email: "friend@example.com", role }), "team_role_required");
        }
        expectRefused(await revokeInvitationForm(member.session, teamId, openInvitation), "team_role_required", team_);
        for (const other of [admin, owner]) {
          expectRefused(await removeMemberForm(member.session, teamId, other.userId), "team_role_required");
          expectRefused(await changeRoleForm(member.session, teamId, other.userId, "member"), "team_role_required", team_);
        }
        expectRefused(await changeRoleForm(member.session, teamId, member.userId, "admin"), "team_role_required", team_);
        expectRefused(await renameTeamForm(member.session, teamId, "Mine now"), "team_role_required", team_);
        expectRefused(await deleteTeamForm(member.session, teamId), "team_role_required", team_);
        expect(await approvalOf(init, member, { project: "new", name: "Team project", team: teamId })).toBe("team_role_required");
        expectRefused(await renameProjectForm(member.session, project, { name: "Renamed" }), "team_role_required", `/projects/${project}`);
        expectRefused(await moveProjectForm(member.session, personal, teamId), "team_role_required", `/projects/${personal}`);
        await expect(listTeamActivity(member.userId, teamId, undefined)).rejects.toMatchObject({ code: "team_role_required" });
        await expect(memberApprovals(member.userId, teamId, admin.userId)).rejects.toMatchObject({ code: "team_role_required" });
      });
      expect((await projectRow(project)).name).toBe("Shared");
      expect((await projectRow(personal)).teamId).toBeNull();
    });
  });

  describe("an admin", () => {
    it("invites members and admins but not owners, and revokes invitations", async () => {
      const { teamId, admin } = team;
      const asMember = await invited(admin, teamId, "new-member@example.com", "member");
      const asAdmin = await invited(admin, teamId, "new-admin@example.com", "admin");
      const prisma = await db();
      expect(await prisma.teamInvitation.findMany({ where: { id: { in: [asMember.id, asAdmin.id] } }, select: { role: true, invitedBy: true }, orderBy: { role: "asc" } })).toEqual([
        { role: "admin", invitedBy: admin.email },
        { role: "member", invitedBy: admin.email },
      ]);
      await writesNothing(async () => {
        await expectJsonRefused(await inviteForm(admin.session, teamId, { email: "new-owner@example.com", role: "owner" }), "team_role_required");
      });
      expect(locationOf(await revokeInvitationForm(admin.session, teamId, asAdmin.id))).toBe(`${SITE}/teams/${teamId}?invitation_revoked=1`);
      expect((await prisma.teamInvitation.findUniqueOrThrow({ where: { id: asAdmin.id } })).revokedAt).not.toBeNull();
      expect(await prisma.activityEvent.count({ where: { userId: admin.userId, kind: "invitation_revoked", subjectId: asAdmin.id, teamId } })).toBe(1);
      // An admin sees open invitations and the team's activity.
      expect((await teamView(admin.userId, teamId)).invitations.map((one) => one.id)).toContain(asMember.id);
      expect((await listTeamActivity(admin.userId, teamId, undefined)).groups.length).toBeGreaterThan(0);
    });

    it("revokes any link in the team's projects, makes team projects and renames them", async () => {
      const { teamId, admin, member } = team;
      const membersLink = await linked(project, (await approvedClientOf(member, project)).accessToken);
      const ownersLink = await linked(project, ownerClient.accessToken);
      for (const link of [membersLink, ownersLink]) {
        expect(locationOf(await revokeLinkForm(admin.session, project, link.link_id))).toBe(`${SITE}/projects/${project}?revoked=${link.link_id}`);
        expect((await linkRow(link.link_id)).revokedAt).not.toBeNull();
        expect((await eventsOf(admin.userId, "link_revoked")).filter((event) => event.subjectId === link.link_id && event.teamId === teamId)).toHaveLength(1);
      }

      const made = await teamProject(admin, teamId, "Admin's");
      expect(await projectRow(made)).toMatchObject({ teamId, ownerId: admin.userId, name: "Admin's" });
      expect(await findReachableProject(member.userId, made)).toMatchObject({ id: made });
      expect(locationOf(await renameProjectForm(admin.session, made, { name: "Renamed by the admin" }))).toBe(`${SITE}/projects/${made}?renamed=1`);
      expect(locationOf(await renameProjectForm(admin.session, project, { name: "Shared" }))).toBe(`${SITE}/projects/${project}?renamed=1`);
      expect((await projectRow(made)).name).toBe("Renamed by the admin");
    });

    it("may not change roles, rename or delete the team, remove an owner or move a project in; each refusal writes nothing", async () => {
      const { teamId, owner, admin, member } = team;
      const personal = await personalProject(admin);
      const team_ = `/teams/${teamId}`;
      await writesNothing(async () => {
        expectRefused(await changeRoleForm(admin.session, teamId, member.userId, "admin"), "team_role_required", team_);
        expectRefused(await changeRoleForm(admin.session, teamId, admin.userId, "owner"), "team_role_required", team_);
        expectRefused(await changeRoleForm(admin.session, teamId, owner.userId, "member"), "team_role_required", team_);
        expectRefused(await renameTeamForm(admin.session, teamId, "Admins' team"), "team_role_required", team_);
        expectRefused(await deleteTeamForm(admin.session, teamId), "team_role_required", team_);
        expectRefused(await removeMemberForm(admin.session, teamId, owner.userId), "team_role_required");
        expectRefused(await moveProjectForm(admin.session, personal, teamId), "team_role_required", `/projects/${personal}`);
      });
      expect(await rolesIn(teamId)).toEqual({ [owner.userId]: "owner", [admin.userId]: "admin", [member.userId]: "member" });
    });

    it("removes members and admins", async () => {
      const { teamId, owner, admin, member } = await teamOfThree();
      const second = await person();
      await added(owner, teamId, second, "admin");
      expect(locationOf(await removeMemberForm(admin.session, teamId, second.userId))).toBe(`${SITE}/teams/${teamId}?removed=1`);
      expect(locationOf(await removeMemberForm(admin.session, teamId, member.userId))).toBe(`${SITE}/teams/${teamId}?removed=1`);
      expect(await rolesIn(teamId)).toEqual({ [owner.userId]: "owner", [admin.userId]: "admin" });
      const removed = await (await db()).activityEvent.findMany({ where: { userId: admin.userId, kind: "member_removed", teamId }, select: { memberEmail: true }, orderBy: { memberEmail: "asc" } });
      expect(removed.map((event) => event.memberEmail).sort()).toEqual([second.email, member.email].sort());
    });
  });

  describe("an owner", () => {
    it("changes roles, renames the team, and invites and removes owners", async () => {
      const { teamId, owner, admin, member } = await teamOfThree();
      const base = `${SITE}/teams/${teamId}`;
      expect(locationOf(await changeRoleForm(owner.session, teamId, member.userId, "admin"))).toBe(`${base}?role_changed=1`);
      expect(locationOf(await changeRoleForm(owner.session, teamId, admin.userId, "owner"))).toBe(`${base}?role_changed=1`);
      // The new owner may change the first owner's role.
      expect(locationOf(await changeRoleForm(admin.session, teamId, owner.userId, "member"))).toBe(`${base}?role_changed=1`);
      expect(await rolesIn(teamId)).toEqual({ [owner.userId]: "member", [admin.userId]: "owner", [member.userId]: "admin" });
      const changes = await (await db()).activityEvent.findMany({ where: { kind: "member_role_changed", teamId }, select: { userId: true, memberEmail: true, role: true } });
      expect(changes).toEqual(
        expect.arrayContaining([
          { userId: owner.userId, memberEmail: member.email, role: "admin" },
          { userId: owner.userId, memberEmail: admin.email, role: "owner" },
          { userId: admin.userId, memberEmail: owner.email, role: "member" },
        ]),
      );
      expect(changes).toHaveLength(3);

      expect(locationOf(await renameTeamForm(admin.session, teamId, "  Infrastructure  "))).toBe(`${base}?renamed=1`);
      expect((await (await db()).team.findUniqueOrThrow({ where: { id: teamId } })).name).toBe("Infrastructure");
      expect(await (await db()).activityEvent.count({ where: { userId: admin.userId, kind: "team_renamed", teamId, teamName: "Infrastructure" } })).toBe(1);

      const third = await person();
      await joined(third, teamId, (await invited(admin, teamId, third.email, "owner")).token);
      expect((await rolesIn(teamId))[third.userId]).toBe("owner");
      expect(locationOf(await removeMemberForm(admin.session, teamId, third.userId))).toBe(`${base}?removed=1`);
      expect((await rolesIn(teamId))[third.userId]).toBeUndefined();
    });

    it("deletes a team only while it has no projects (team_has_projects)", async () => {
      await writesNothing(async () => {
        expectRefused(await deleteTeamForm(team.owner.session, team.teamId), "team_has_projects", `/teams/${team.teamId}`);
      });
      const { teamId, owner } = await teamOfThree("Short-lived");
      const invitation = await invited(owner, teamId, "late@example.com", "member");
      expect(locationOf(await deleteTeamForm(owner.session, teamId))).toBe(`${SITE}/teams?deleted=1`);
      const prisma = await db();
      expect(await prisma.team.count({ where: { id: teamId } })).toBe(0);
      expect(await prisma.teamMember.count({ where: { teamId } })).toBe(0);
      expect(await prisma.teamInvitation.count({ where: { id: invitation.id } })).toBe(0);
      expect(await prisma.activityEvent.findMany({ where: { userId: owner.userId, kind: "team_deleted", teamId }, select: { teamName: true } })).toEqual([{ teamName: "Short-lived" }]);
    });

    it("moves a personal project into the team: its links and tokens stay, the members reach it, and it stays there", async () => {
      const { teamId, owner, member } = await teamOfThree();
      const personal = await personalProject(owner, "Moved");
      const client = await approvedClientOf(owner, personal);
      const link = await linked(personal, client.accessToken);
      expect(await findReachableProject(member.userId, personal)).toBeNull();

      expect(locationOf(await moveProjectForm(owner.session, personal, teamId))).toBe(`${SITE}/projects/${personal}?moved=1`);
      expect(await projectRow(personal)).toMatchObject({ teamId, ownerId: owner.userId, name: "Moved" });
      expect(await (await db()).activityEvent.count({ where: { userId: owner.userId, kind: "project_moved_to_team", teamId, projectId: personal } })).toBe(1);
      expect(await findReachableProject(member.userId, personal)).toMatchObject({ id: personal, team: { id: teamId, role: "member" } });
      expect((await getProject(personal, { authorization: link.bearer })).status).toBe(200);
      expect(decodeJwt((await linked(personal, client.accessToken)).jwt).team_id).toBe(teamId);
      expect(await introspect(client.accessToken, (await settingsToken(owner, "all")).token)).toMatchObject({ active: true, team_id: teamId });
      expect(await approvalOf((await pendingInits(1))[0], member, { project: personal })).toBeNull();

      // A team they are not in reads as none; one they own takes no project of another team.
      const [notTheirs, another] = await Promise.all([teamOfThree().then((other) => other.teamId), newTeam(owner, "Another")]);
      await writesNothing(async () => {
        expectRefused(await moveProjectForm(owner.session, personal, notTheirs), "not_found", `/projects/${personal}`);
      });
      await writesNothing(async () => {
        expectRefused(await moveProjectForm(owner.session, personal, another), "invalid_request", `/projects/${personal}`);
      });
      expect((await projectRow(personal)).teamId).toBe(teamId);
    });

    it("as the last owner cannot leave, be removed or be demoted (last_owner)", async () => {
      const { teamId, owner, admin, member } = await teamOfThree();
      const leave = (who: Person) => removeMemberForm(who.session, teamId, who.userId);
      await writesNothing(async () => {
        expectRefused(await leave(owner), "last_owner");
        expectRefused(await changeRoleForm(owner.session, teamId, owner.userId, "admin"), "last_owner", `/teams/${teamId}`);
        // Only an owner removes an owner: the admin is refused for their role first.
        expectRefused(await removeMemberForm(admin.session, teamId, owner.userId), "team_role_required");
      });
      // Handed over: a second owner, then the first may leave, and the second is the last.
      expect(formErrorOf(await changeRoleForm(owner.session, teamId, admin.userId, "owner"))).toBeNull();
      expect(locationOf(await leave(owner))).toBe(`${SITE}/teams?left=1`);
      expect(await (await db()).activityEvent.count({ where: { userId: owner.userId, kind: "member_left", teamId } })).toBe(1);
      await writesNothing(async () => {
        expectRefused(await leave(admin), "last_owner");
        expectRefused(await changeRoleForm(admin.session, teamId, admin.userId, "member"), "last_owner");
      });
      // A member leaves as they like.
      expect(locationOf(await leave(member))).toBe(`${SITE}/teams?left=1`);
      expect(await rolesIn(teamId)).toEqual({ [admin.userId]: "owner" });
    });
  });

  describe("someone not in the team", () => {
    it("gets not_found for everything of the team, as for a team that does not exist, writing nothing", async () => {
      const outsider = await person();
      const personal = await personalProject(outsider);
      const all = await settingsToken(outsider, "all");
      const ownersLink = await linked(project, ownerClient.accessToken);
      const membersToken = (await approvedClientOf(team.member, project)).accessToken;
      const { member } = team;
      const inits = await pendingInits(3);
      for (const [nth, teamId] of [team.teamId, randomId()].entries()) {
        const team_ = `/teams/${teamId}`;
        await writesNothing(async () => {
          await expectJsonRefused(await inviteForm(outsider.session, teamId, { email: "me@example.com", role: "member" }), "not_found");
          expectRefused(await revokeInvitationForm(outsider.session, teamId, openInvitation), "not_found", team_);
          expectRefused(await renameTeamForm(outsider.session, teamId, "Ours"), "not_found", team_);
          expectRefused(await deleteTeamForm(outsider.session, teamId), "not_found", team_);
          expectRefused(await changeRoleForm(outsider.session, teamId, member.userId, "admin"), "not_found", team_);
          expectRefused(await removeMemberForm(outsider.session, teamId, member.userId), "not_found");
          expectRefused(await removeMemberForm(outsider.session, teamId, outsider.userId), "not_found");
          expectRefused(await moveProjectForm(outsider.session, personal, teamId), "not_found", `/projects/${personal}`);
          expect(await approvalOf(inits[nth], outsider, { project: "new", name: "Theirs", team: teamId })).toBe("not_found");
          await expect(teamView(outsider.userId, teamId)).rejects.toMatchObject({ code: "not_found" });
          await expect(listTeamActivity(outsider.userId, teamId, undefined)).rejects.toMatchObject({ code: "not_found" });
        });
      }
      await writesNothing(async () => {
        expect(await approvalOf(inits[2], outsider, { project })).toBe("not_found");
        expectRefused(await renameProjectForm(outsider.session, project, { name: "Mine" }), "not_found", `/projects/${project}`);
        expectRefused(await revokeLinkForm(outsider.session, project, ownersLink.link_id), "not_found", `/projects/${project}`);
        await expectJsonRefused(await createTokenForm(outsider.session, { name: "Theirs", scope: project, lifetime: "30" }), "not_found");
        await expectJsonRefused(await createLink(project, randomIv(), withToken(all.token)), "not_found");
      });
      // An introspection counts against its caller's token, whatever it answers: outside the check above.
      expect(await introspect(membersToken, all.token)).toEqual({ active: false });
      expect((await listProjects(outsider.userId)).map((one) => one.id)).toEqual([personal]);
      expect(await findReachableProject(outsider.userId, project)).toBeNull();
    });
  });
});

describe("invitations", () => {
  it("refuse one used already, revoked, expired, made up, for another email unless any_email=yes, and for a member; each writing nothing", async () => {
    const [owner, invitee, other, third] = await Promise.all([person(), person(), person(), person()]);
    const teamId = await newTeam(owner);
    const join = `/teams/join`;

    const first = await invited(owner, teamId, invitee.email, "member");
    await joined(invitee, teamId, first.token);
    const revoked = await invited(owner, teamId, other.email, "admin");
    expect(formErrorOf(await revokeInvitationForm(owner.session, teamId, revoked.id))).toBeNull();
    const forThird = await invited(owner, teamId, third.email, "member");
    const forInvitee = await invited(owner, teamId, invitee.email, "admin");
    const expired = await invited(owner, teamId, other.email, "member");
    await (await db()).teamInvitation.update({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 1000) } });

    await writesNothing(async () => {
      expectRefused(await acceptInvitationForm(invitee.session, first.token), "invitation_used", join);
      expectRefused(await acceptInvitationForm(other.session, first.token), "invitation_used", join);
      expectRefused(await acceptInvitationForm(other.session, revoked.token), "invitation_revoked", join);
      expectRefused(await acceptInvitationForm(other.session, expired.token), "invitation_expired", join);
      expectRefused(await acceptInvitationForm(other.session, "A".repeat(43)), "invitation_invalid", join);
      expectRefused(await acceptInvitationForm(other.session, forThird.token), "invitation_email_mismatch", join);
      expectRefused(await acceptInvitationForm(invitee.session, forInvitee.token), "already_member", join);
      expectRefused(await revokeInvitationForm(owner.session, teamId, revoked.id), "not_found", `/teams/${teamId}`);
    });
    expect(await rolesIn(teamId)).toEqual({ [owner.userId]: "owner", [invitee.userId]: "member" });

    // Any email allowed: another account may accept, once.
    const open = await invited(owner, teamId, "whoever@example.com", "member", true);
    await joined(other, teamId, open.token);
    await writesNothing(async () => {
      expectRefused(await acceptInvitationForm(third.session, open.token), "invitation_used", join);
    });
    expect(await rolesIn(teamId)).toEqual({ [owner.userId]: "owner", [invitee.userId]: "member", [other.userId]: "member" });
  });
});

describe("removing a member", () => {
  /** A team, a project of it, and what its member approved into it: a client's token and links, a token of the settings page, a token for every project with a link, an OAuth login; and their own personal project's client. */
  async function memberWithApprovals() {
    const team = await teamOfThree();
    const project = await teamProject(team.owner, team.teamId);
    const { member } = team;
    const client = await approvedClientOf(member, project);
    const device = await deviceAuthorized();
    expect(formErrorOf(await approve(device.initId, member.session, { project, user_code: device.user_code }))).toBeNull();
    const [clientLinks, settings, all, login, admins, personal] = await Promise.all([
      Promise.all([linked(project, client.accessToken), linked(project, client.accessToken)]),
      settingsToken(member, project),
      settingsToken(member, "all"),
      exchange(device.device_code).then(async (response) => {
        const body = (await response.clone().json()) as { team_id?: string };
        expect(body.team_id).toBe(team.teamId);
        return tokensOf(response);
      }),
      approvedClientOf(team.admin, project).then(async (admin) => ({ ...admin, link: await linked(project, admin.accessToken) })),
      personalProject(member, "Own").then((id) => approvedClientOf(member, id)),
    ]);
    const allLink = await linked(project, all.token);
    return { ...team, project, client, clientLinks, settings, all, allLink, login, admins, personal };
  }

  it("revokes in the same request the member's tokens, OAuth logins and links into the team's projects, each an event of the team; then the member reaches nothing of it", async () => {
    const fixture = await memberWithApprovals();
    const { teamId, admin, member, project } = fixture;
    const approvals = await memberApprovals(admin.userId, teamId, member.userId);
    expect({ links: approvals.links.length, tokens: approvals.tokens.length, logins: approvals.logins }).toEqual({ links: 3, tokens: 3, logins: 1 });

    expect(locationOf(await removeMemberForm(admin.session, teamId, member.userId))).toBe(`${SITE}/teams/${teamId}?removed=1`);
    expect(await rolesIn(teamId)).not.toHaveProperty(member.userId);

    const prisma = await db();
    const oauthToken = await tokenRow(fixture.login.access_token);
    const revokedTokens = await Promise.all([tokenRow(fixture.client.accessToken), tokenRow(fixture.settings.token), Promise.resolve(oauthToken)]);
    const revokedLinks = await Promise.all([...fixture.clientLinks, fixture.allLink].map((link) => linkRow(link.link_id)));
    const logins = await prisma.oAuthLogin.findMany({ where: { userId: member.userId } });
    // One instant: the removal's own transaction.
    const at = revokedTokens[0].revokedAt;
    expect(at).not.toBeNull();
    expect([...revokedTokens, ...revokedLinks, ...logins].map((row) => row.revokedAt)).toEqual(Array(7).fill(at));
    expect(logins.map((login) => login.revokedReason)).toEqual(["removal"]);
    // What is not the team's stays: the token for every project (its link into the team's project
    // is revoked), the personal project's client, the admin's own link.
    expect((await tokenRow(fixture.all.token)).revokedAt).toBeNull();
    expect((await tokenRow(fixture.personal.accessToken)).revokedAt).toBeNull();
    expect((await linkRow(fixture.admins.link.link_id)).revokedAt).toBeNull();

    const events = await prisma.activityEvent.findMany({ where: { userId: admin.userId, teamId, kind: { in: ["member_removed", "link_revoked", "access_token_revoked"] } }, select: { kind: true, subjectId: true, decidedBy: true } });
    expect(events.filter((event) => event.kind === "member_removed")).toHaveLength(1);
    expect(events.filter((event) => event.kind === "link_revoked").map((event) => event.subjectId).sort()).toEqual(revokedLinks.map((link) => link.id).sort());
    expect(events.filter((event) => event.kind === "access_token_revoked").map((event) => event.subjectId).sort()).toEqual(revokedTokens.map((token) => token.id).sort());
    expect(new Set(events.map((event) => event.decidedBy))).toEqual(new Set([admin.email]));

    // The member's clients lose the project, and the member reaches nothing of the team.
    expect((await getProject(project, { authorization: fixture.clientLinks[0].bearer })).status).toBe(401);
    expect((await getProject(project, { authorization: fixture.allLink.bearer })).status).toBe(401);
    expect((await createLink(project, randomIv(), withToken(fixture.client.accessToken))).status).toBe(401);
    expect((await refresh(fixture.login.refresh_token)).status).toBe(400);
    const [init] = await pendingInits(1);
    await writesNothing(async () => {
      await expectJsonRefused(await createLink(project, randomIv(), withToken(fixture.all.token)), "not_found");
      expect(await approvalOf(init, member, { project })).toBe("not_found");
      expectRefused(await renameProjectForm(member.session, project, { name: "Still mine" }), "not_found");
      expectRefused(await revokeLinkForm(member.session, project, fixture.admins.link.link_id), "not_found");
      await expectJsonRefused(await createTokenForm(member.session, { name: "Back in", scope: project, lifetime: "30" }), "not_found");
      expectRefused(await removeMemberForm(member.session, teamId, member.userId), "not_found");
      await expect(teamView(member.userId, teamId)).rejects.toMatchObject({ code: "not_found" });
    });
    expect((await getProject(project, { authorization: fixture.admins.link.bearer })).status).toBe(200);
    expect((await createLink(fixture.personal.init.id, randomIv(), withToken(fixture.personal.accessToken))).status).toBe(200);
  });

  it("with keep_links=yes keeps the links and the tokens they hang on; the rest goes, and the member still reaches nothing", async () => {
    const fixture = await memberWithApprovals();
    const { teamId, owner, member, project } = fixture;
    expect(locationOf(await removeMemberForm(owner.session, teamId, member.userId, { keep_links: "yes" }))).toBe(`${SITE}/teams/${teamId}?removed=1`);

    // Kept: the links, and the two tokens that made them.
    for (const link of [...fixture.clientLinks, fixture.allLink]) {
      expect((await linkRow(link.link_id)).revokedAt).toBeNull();
      expect((await getProject(project, { authorization: link.bearer })).status).toBe(200);
    }
    expect((await tokenRow(fixture.client.accessToken)).revokedAt).toBeNull();
    expect((await tokenRow(fixture.all.token)).revokedAt).toBeNull();
    // Gone: the token without a link, and the OAuth login with its token.
    expect((await tokenRow(fixture.settings.token)).revokedAt).not.toBeNull();
    expect((await tokenRow(fixture.login.access_token)).revokedAt).not.toBeNull();
    expect(await (await db()).oAuthLogin.findMany({ where: { userId: member.userId }, select: { revokedReason: true } })).toEqual([{ revokedReason: "removal" }]);
    const events = await (await db()).activityEvent.findMany({ where: { userId: owner.userId, teamId, kind: { in: ["link_revoked", "access_token_revoked"] } }, select: { kind: true } });
    expect(events.map((event) => event.kind)).toEqual(["access_token_revoked", "access_token_revoked"]);

    // A kept token makes no new link: the person behind it is out of the team.
    const [init] = await pendingInits(1);
    await writesNothing(async () => {
      await expectJsonRefused(await createLink(project, randomIv(), withToken(fixture.client.accessToken)), "not_found");
      await expectJsonRefused(await createLink(project, randomIv(), withToken(fixture.all.token)), "not_found");
      expect(await approvalOf(init, member, { project })).toBe("not_found");
    });
  });

  it("a member who leaves loses the same, recorded in their own activity", async () => {
    const { teamId, owner, member } = await teamOfThree();
    const project = await teamProject(owner, teamId);
    const client = await approvedClientOf(member, project);
    const link = await linked(project, client.accessToken);
    expect(locationOf(await removeMemberForm(member.session, teamId, member.userId))).toBe(`${SITE}/teams?left=1`);
    expect((await linkRow(link.link_id)).revokedAt).not.toBeNull();
    expect((await tokenRow(client.accessToken)).revokedAt).not.toBeNull();
    const events = await (await db()).activityEvent.findMany({ where: { userId: member.userId, teamId }, select: { kind: true, subjectId: true } });
    expect(events.map((event) => event.kind).sort()).toEqual(["access_token_revoked", "link_revoked", "member_joined", "member_left"]);
    expect(await findReachableProject(member.userId, project)).toBeNull();
  });
});
