import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/database/db";
import { EVENT_TYPE_NAMES, PERSONAL_EVENT_TYPES, TEAM_EVENT_TYPES } from "@/lib/events/event-types";
import { linked } from "../../helpers/links";
import {
  added,
  approvedClientOf,
  changeRoleForm,
  formErrorOf,
  invited,
  joined,
  person,
  removeMemberForm,
  teamOfThree,
  teamProject,
  type Person,
} from "../../helpers/teams";
import { deliverAll, endpointFor, startReceiver, type ReceivedEvent, type Receiver } from "../../helpers/webhooks";

// A team's events (member.added, member.removed, member.role_changed) and the events of its
// projects go to the team's endpoints, with the team in their data; never to the acting
// person's own endpoint. What each carries is checked against the activity event it was copied
// from and the team's rows.

beforeAll(() => {
  Object.assign(process.env, { OUTBOUND_ALLOW_PRIVATE: "true", WEBHOOK_RETRY_SCHEDULE: "5s,5s,5s" });
});

/** What a team's endpoint may receive: all but a request denied or expired, which belongs to no project. */
const TEAM_ENDPOINT_TYPES = EVENT_TYPE_NAMES.filter((type) => !PERSONAL_EVENT_TYPES.includes(type));
/** What a person's own endpoint may receive. */
const OWN_ENDPOINT_TYPES = EVENT_TYPE_NAMES.filter((type) => !TEAM_EVENT_TYPES.includes(type));

const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

async function receiver(): Promise<Receiver> {
  const started = await startReceiver();
  receivers.push(started);
  return started;
}

/** A team of three whose owner added an endpoint for every type a team's may have, and each member's own endpoint for every type a person's may have. */
async function teamWithEndpoints() {
  const team = await teamOfThree("Platform");
  const teamHooks = await receiver();
  await endpointFor(team.owner, teamHooks, TEAM_ENDPOINT_TYPES, team.teamId);
  const personal = new Map<Person, Receiver>();
  for (const who of [team.owner, team.admin, team.member]) {
    const hooks = await receiver();
    await endpointFor(who, hooks, OWN_ENDPOINT_TYPES);
    personal.set(who, hooks);
  }
  return { ...team, teamHooks, personal };
}

/** Delivers what is due; the events that arrived since `before`, and a second pass sends nothing. */
async function arrivedSince(hooks: Receiver, before: number): Promise<ReceivedEvent[]> {
  await deliverAll();
  expect(await deliverAll()).toEqual({ delivered: 0, retried: 0, failed: 0 });
  expect(hooks.rejected).toEqual([]);
  return hooks.events.slice(before);
}

/** The activity event an event was copied from. */
const activityOf = async (event: ReceivedEvent) => (await db()).activityEvent.findUniqueOrThrow({ where: { id: String(event.data.event_id) } });

describe("a team's events", () => {
  it("member.added: the person who joined, through which invitation, with the role given", async () => {
    const { teamId, owner, teamHooks, personal } = await teamWithEndpoints();
    const newcomer = await person();
    const invitation = await invited(owner, teamId, newcomer.email, "admin");
    await joined(newcomer, teamId, invitation.token);

    const [event, ...more] = await arrivedSince(teamHooks, 0);
    expect(more).toEqual([]);
    expect(event.type).toBe("member.added");
    const activity = await activityOf(event);
    expect(activity).toMatchObject({ kind: "member_joined", userId: newcomer.userId, subjectId: invitation.id, teamId });
    expect(event.data).toEqual({
      event_id: activity.id,
      subject_id: invitation.id,
      account_id: newcomer.userId,
      account_email: newcomer.email,
      project: null,
      team: { id: teamId, name: "Platform" },
      client: null,
      request_ip: null,
      token_name: null,
      iv: null,
      member: { account_id: newcomer.userId, email: newcomer.email },
      role: "admin",
      access_lifetime_seconds: null,
      reason: null,
    });
    expect(event.timestamp).toBe(activity.occurredAt.toISOString());
    for (const hooks of personal.values()) expect(hooks.seen).toEqual([]);
  });

  it("member.role_changed: who changed whose role to what", async () => {
    const { teamId, owner, member, teamHooks, personal } = await teamWithEndpoints();
    expect(formErrorOf(await changeRoleForm(owner.session, teamId, member.userId, "admin"))).toBeNull();
    // The same role again changes nothing: no event.
    const [event, ...more] = await arrivedSince(teamHooks, 0);
    expect(more).toEqual([]);
    const activity = await activityOf(event);
    expect(activity).toMatchObject({ kind: "member_role_changed", userId: owner.userId, teamId });
    expect(event).toMatchObject({ type: "member.role_changed", timestamp: activity.occurredAt.toISOString() });
    expect(event.data).toEqual({
      event_id: activity.id,
      subject_id: activity.subjectId,
      account_id: owner.userId,
      account_email: owner.email,
      project: null,
      team: { id: teamId, name: "Platform" },
      client: null,
      request_ip: null,
      token_name: null,
      iv: null,
      member: { account_id: member.userId, email: member.email },
      role: "admin",
      access_lifetime_seconds: null,
      reason: null,
    });
    // A refused change (a member may change no role) sends nothing.
    expect(formErrorOf(await changeRoleForm(member.session, teamId, owner.userId, "member"))).toBe("team_role_required");
    expect(await arrivedSince(teamHooks, 1)).toEqual([]);
    for (const hooks of personal.values()) expect(hooks.seen).toEqual([]);
  });

  it("member.removed: removed by an admin, with what the member approved into the team's projects revoked, all to the team's endpoint", async () => {
    const { teamId, owner, admin, member, teamHooks, personal } = await teamWithEndpoints();
    const projectId = await teamProject(owner, teamId, "Shared");
    const client = await approvedClientOf(member, projectId);
    const link = await linked(projectId, client.accessToken);
    const made = await arrivedSince(teamHooks, 0);
    // The team project's events: its making (by the owner), the member's approval and link.
    expect(made.map((event) => `${event.type} by ${String(event.data.account_id)}`).sort()).toEqual(
      [`init.approved by ${member.userId}`, `init.approved by ${owner.userId}`, `link.created by ${member.userId}`].sort(),
    );
    for (const event of made) expect(event.data).toMatchObject({ project: { id: projectId, name: "Shared" }, team: { id: teamId, name: "Platform" } });

    expect(formErrorOf(await removeMemberForm(admin.session, teamId, member.userId))).toBeNull();
    const removal = await arrivedSince(teamHooks, made.length);
    expect(removal.map((event) => event.type).sort()).toEqual(["access_token.revoked", "link.revoked", "member.removed"]);
    const byType = Object.fromEntries(removal.map((event) => [event.type, event]));
    const activity = await activityOf(byType["member.removed"]);
    expect(activity).toMatchObject({ kind: "member_removed", userId: admin.userId, teamId });
    expect(byType["member.removed"].data).toEqual({
      event_id: activity.id,
      subject_id: activity.subjectId,
      account_id: admin.userId,
      account_email: admin.email,
      project: null,
      team: { id: teamId, name: "Platform" },
      client: null,
      request_ip: null,
      token_name: null,
      iv: null,
      member: { account_id: member.userId, email: member.email },
      role: null,
      access_lifetime_seconds: null,
      reason: "removed",
    });
    const token = await (await db()).accessToken.findFirstOrThrow({ where: { links: { some: { id: link.link_id } } } });
    expect(byType["link.revoked"].data).toMatchObject({ subject_id: link.link_id, account_id: admin.userId, iv: link.iv, token_name: token.name, project: { id: projectId, name: "Shared" }, team: { id: teamId, name: "Platform" } });
    expect(byType["access_token.revoked"].data).toMatchObject({ subject_id: token.id, account_id: admin.userId, token_name: token.name, project: { id: projectId, name: "Shared" }, team: { id: teamId, name: "Platform" } });
    // Nothing of the team's projects reaches a person's own endpoint.
    for (const hooks of personal.values()) expect(hooks.seen).toEqual([]);
  });

  it("member.removed: a member who left, reason left", async () => {
    const { teamId, member, teamHooks } = await teamWithEndpoints();
    expect(formErrorOf(await removeMemberForm(member.session, teamId, member.userId))).toBeNull();
    const [event, ...more] = await arrivedSince(teamHooks, 0);
    expect(more).toEqual([]);
    const activity = await activityOf(event);
    expect(activity).toMatchObject({ kind: "member_left", userId: member.userId });
    expect(event.data).toMatchObject({ account_id: member.userId, member: { account_id: member.userId, email: member.email }, team: { id: teamId, name: "Platform" }, reason: "left" });
  });

  it("goes to every endpoint of the team subscribed to the type, and to no other team's", async () => {
    const first = await teamWithEndpoints();
    const second = await teamOfThree("Elsewhere");
    const elsewhere = await receiver();
    await endpointFor(second.owner, elsewhere, TEAM_ENDPOINT_TYPES, second.teamId);
    // The admin's endpoint for the same team, for member events only.
    const adminHooks = await receiver();
    await endpointFor(first.admin, adminHooks, ["member.added"], first.teamId);

    const newcomer = await person();
    await added(first.owner, first.teamId, newcomer, "member");
    const [toOwner] = await arrivedSince(first.teamHooks, 0);
    expect(adminHooks.events).toEqual([expect.objectContaining({ type: "member.added", data: toOwner.data })]);
    // One change, one message for each endpoint: two webhook-ids.
    expect(adminHooks.events[0].id).not.toBe(toOwner.id);
    expect(elsewhere.seen).toEqual([]);
  });
});
