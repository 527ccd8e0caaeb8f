import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/database/db";
import { createdInit } from "../../helpers/api";
import { approve, deny, revokeTokenForm } from "../../helpers/forms";
import { approvalError, formErrorOf, moveProjectForm, person, personalProject, settingsToken, teamOfThree, teamProject } from "../../helpers/teams";
import { deleteEndpointForm, deliverAll, disableEndpointForm, enableEndpointForm, endpointFor, messagesOf, startReceiver, type Receiver } from "../../helpers/webhooks";

// Where an event goes (the outbox's trigger, prisma/migrations/*_webhooks): a team project's or
// a team's to the team's endpoints, anything else to the acting person's own; each endpoint only
// the types it subscribed to; a disabled endpoint nothing new, its queue kept until it is
// enabled; a change that was refused nothing at all.

beforeAll(() => {
  Object.assign(process.env, { OUTBOUND_ALLOW_PRIVATE: "true", WEBHOOK_RETRY_SCHEDULE: "5s,5s,5s" });
});

const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

async function receiver(): Promise<Receiver> {
  const started = await startReceiver();
  receivers.push(started);
  return started;
}

const typesOf = (hooks: Receiver) => hooks.events.map((event) => event.type).sort();
const outboxSize = async () => (await db()).webhookMessage.count();

describe("routing", () => {
  it("sends a team project's event to the team's endpoint and not to the acting person's own; a personal project's to the person's own alone", async () => {
    const { teamId, owner, admin } = await teamOfThree();
    const teamHooks = await receiver();
    const adminHooks = await receiver();
    const ownerHooks = await receiver();
    await endpointFor(owner, teamHooks, ["init.approved"], teamId);
    await endpointFor(admin, adminHooks, ["init.approved"]);
    await endpointFor(owner, ownerHooks, ["init.approved"]);

    const shared = await teamProject(admin, teamId, "Shared");
    const own = await personalProject(admin, "Mine");
    await deliverAll();
    expect(teamHooks.events.map((event) => event.data.project)).toEqual([{ id: shared, name: "Shared" }]);
    expect(teamHooks.events[0].data).toMatchObject({ account_id: admin.userId, team: { id: teamId, name: "Platform" } });
    expect(adminHooks.events.map((event) => event.data.project)).toEqual([{ id: own, name: "Mine" }]);
    expect(adminHooks.events[0].data.team).toBeNull();
    // The team's owner made the team's endpoint, but an admin's personal project is not the team's, nor the owner's.
    expect(ownerHooks.seen).toEqual([]);
  });

  it("follows a project into its team: what happens to it after the move goes to the team's endpoint", async () => {
    const { teamId, owner } = await teamOfThree();
    const teamHooks = await receiver();
    const ownHooks = await receiver();
    await endpointFor(owner, teamHooks, ["access_token.created"], teamId);
    await endpointFor(owner, ownHooks, ["access_token.created"]);
    const projectId = await personalProject(owner, "Moving");
    const before = await settingsToken(owner, projectId);
    expect(formErrorOf(await moveProjectForm(owner.session, projectId, teamId))).toBeNull();
    const after = await settingsToken(owner, projectId);
    await deliverAll();
    expect(ownHooks.events.map((event) => event.data.subject_id)).toEqual([before.id]);
    expect(teamHooks.events.map((event) => event.data.subject_id)).toEqual([after.id]);
    expect(teamHooks.events[0].data).toMatchObject({ project: { id: projectId }, team: { id: teamId, name: "Platform" } });
  });

  it("sends another account nothing of a person's changes", async () => {
    const [alice, bob] = [await person(), await person()];
    const aliceHooks = await receiver();
    const bobHooks = await receiver();
    const every = ["init.approved", "init.denied", "access_token.created", "access_token.revoked"];
    await endpointFor(alice, aliceHooks, every);
    await endpointFor(bob, bobHooks, every);
    const init = await createdInit();
    expect(await approvalError(init.id, alice, { project: "new", name: "Alice's" })).toBeNull();
    await deny((await createdInit()).id, alice.session);
    const token = await settingsToken(alice, "all");
    await revokeTokenForm(alice.session, token.id);
    await deliverAll();
    expect(typesOf(aliceHooks)).toEqual(["access_token.created", "access_token.revoked", "init.approved", "init.denied"]);
    for (const event of aliceHooks.events) expect(event.data.account_id).toBe(alice.userId);
    expect(bobHooks.seen).toEqual([]);
  });

  it("sends an endpoint only the types it subscribed to, and queues nothing for the others", async () => {
    const owner = await person();
    const deniedOnly = await receiver();
    const tokensOnly = await receiver();
    const denied = await endpointFor(owner, deniedOnly, ["init.denied"]);
    const tokens = await endpointFor(owner, tokensOnly, ["access_token.created", "access_token.revoked"]);
    const init = await createdInit();
    expect(await approvalError(init.id, owner, { project: "new", name: "Filtered" })).toBeNull();
    await deny((await createdInit()).id, owner.session);
    const made = await settingsToken(owner, "all");
    await deliverAll();
    expect(typesOf(deniedOnly)).toEqual(["init.denied"]);
    expect(typesOf(tokensOnly)).toEqual(["access_token.created"]);
    expect(tokensOnly.events[0].data.subject_id).toBe(made.id);
    expect((await messagesOf(denied.id)).map((message) => message.kind)).toEqual(["init_denied"]);
    expect((await messagesOf(tokens.id)).map((message) => message.kind)).toEqual(["access_token_created"]);
  });

  it("queues nothing for a disabled endpoint, keeps what it had queued until it is enabled, and drops its queue with it when deleted", async () => {
    const owner = await person();
    const hooks = await receiver();
    const endpoint = await endpointFor(owner, hooks, ["access_token.created"]);
    const queued = await settingsToken(owner, "all");
    const disabled = await disableEndpointForm(owner.session, endpoint.id);
    expect(disabled.headers.get("location")).toBe(`https://initlink.test/webhooks/${endpoint.id}?disabled=1`);
    const prisma = await db();
    expect(await prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).toMatchObject({ disabledAt: expect.any(Date), disabledReason: "admin" });

    await settingsToken(owner, "all");
    expect((await messagesOf(endpoint.id)).map((message) => message.activityEventId)).toHaveLength(1);
    expect(await deliverAll()).toEqual({ delivered: 0, retried: 0, failed: 0 });
    expect(hooks.seen).toEqual([]);

    expect((await enableEndpointForm(owner.session, endpoint.id)).headers.get("location")).toBe(`https://initlink.test/webhooks/${endpoint.id}?enabled=1`);
    const after = await settingsToken(owner, "all");
    expect(await deliverAll()).toEqual({ delivered: 2, retried: 0, failed: 0 });
    // What happened while it was disabled never comes.
    expect(hooks.events.map((event) => event.data.subject_id).sort()).toEqual([queued.id, after.id].sort());

    // Deleted, with a message still queued: the message goes with it.
    await disableEndpointForm(owner.session, endpoint.id);
    await enableEndpointForm(owner.session, endpoint.id);
    await settingsToken(owner, "all");
    expect(await messagesOf(endpoint.id)).toHaveLength(3);
    expect((await deleteEndpointForm(owner.session, endpoint.id)).headers.get("location")).toBe("https://initlink.test/webhooks?deleted=1");
    expect(await messagesOf(endpoint.id)).toEqual([]);
    expect(await prisma.webhookAttempt.count({ where: { endpointId: endpoint.id } })).toBe(0);
    await settingsToken(owner, "all");
    expect(await deliverAll()).toEqual({ delivered: 0, retried: 0, failed: 0 });
    expect(hooks.seen).toHaveLength(2);
  });

  it("writes no outbox row for a change that was refused", async () => {
    const [owner, stranger] = [await person(), await person()];
    const hooks = await receiver();
    await endpointFor(owner, hooks, ["init.approved", "init.denied", "access_token.revoked"]);
    const init = await createdInit();
    expect(await approvalError(init.id, owner, { project: "new", name: "Once" })).toBeNull();
    await deliverAll();
    const before = await outboxSize();
    // Approved already: approving again, or denying, is refused.
    expect(await approvalError(init.id, owner, { project: "new", name: "Twice" })).not.toBeNull();
    expect(formErrorOf(await deny(init.id, owner.session))).not.toBeNull();
    // Without the code confirmed, refused.
    const unconfirmed = await createdInit();
    expect(formErrorOf(await approve(unconfirmed.id, owner.session, { project: "new", name: "Unconfirmed" }))).not.toBeNull();
    // Another person's token is not theirs to revoke.
    const token = await settingsToken(owner, "all");
    const afterToken = await outboxSize();
    expect(formErrorOf(await revokeTokenForm(stranger.session, token.id))).toBe("not_found");
    expect(await outboxSize()).toBe(afterToken);
    // The token's creation is not subscribed to: nothing for it either.
    expect(afterToken).toBe(before);
    await deliverAll();
    expect(typesOf(hooks)).toEqual(["init.approved"]);
  });
});
