import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { recordInitOpened } from "@/lib/activity/record-activity";
import { config } from "@/lib/config";
import { db } from "@/lib/database/db";
import { sweep } from "@/lib/maintenance/sweep";
import { createdInit } from "../../helpers/api";
import { cookieHeader, createTokenForm, deny, revokeLinkForm, revokeTokenForm, SITE } from "../../helpers/forms";
import { dispatch } from "../../helpers/in-process";
import { linked } from "../../helpers/links";
import { loggedIn, refresh, revoke, tokensOf } from "../../helpers/oauth";
import { approvalError, person, pickup, type Person } from "../../helpers/teams";
import { deliverAll, endpointFor, messagesOf, startReceiver, type ReceivedEvent, type Receiver } from "../../helpers/webhooks";

// Each event type of a person's own (lib/events/event-types.ts) arrives once per change, signed
// (the receiver verifies every request with the standardwebhooks library), its data as the
// database has the change: the activity event it was copied from, the project, the client's
// report. Team events and routing: team-events.test.ts and routing.test.ts.

beforeAll(() => {
  Object.assign(process.env, { OUTBOUND_ALLOW_PRIVATE: "true", WEBHOOK_RETRY_SCHEDULE: "5s,5s,5s" });
});

const PERSONAL_TYPES = [
  "init.approved",
  "init.denied",
  "init.expired",
  "link.created",
  "link.revoked",
  "access_token.created",
  "access_token.revoked",
  "oauth_login.revoked",
  "approval.reported",
];

/** What the client says of itself at Create Init. */
const CLIENT_REPORT = { sender: "@acme/cli", sender_device: "laptop", sender_os: "linux" };
const CLIENT = { sender: "@acme/cli", device: "laptop", os: "linux", reported_ip: null };
/** Every request of these tests comes from loopback (tests/helpers/in-process.ts). */
const REQUEST_IP = "127.0.0.1";

/** The fields of `data` that no event of a person's own has. */
const NOT_A_TEAM_EVENT = { team: null, member: null, role: null };

const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

/** A person with a receiver subscribed to every type of their own. */
async function subscribed(who?: Person) {
  const hooks = await startReceiver();
  receivers.push(hooks);
  const owner = who ?? (await person());
  const endpoint = await endpointFor(owner, hooks, PERSONAL_TYPES);
  return { hooks, owner, endpoint };
}

/**
 * Delivers what is due, then checks that the receiver got exactly `types` (in any order), each
 * once, that a second pass sends nothing, and that each event is the activity event its
 * event_id names: the same kind, account and time. Returns the events by type.
 */
async function deliveredOnce(hooks: Receiver, endpointId: string, types: string[]): Promise<Record<string, ReceivedEvent>> {
  const before = hooks.events.length;
  await deliverAll();
  const arrived = hooks.events.slice(before);
  expect(arrived.map((event) => event.type).sort()).toEqual([...types].sort());
  expect(new Set(arrived.map((event) => event.id)).size).toBe(arrived.length);
  expect(hooks.rejected).toEqual([]);
  expect(await deliverAll()).toEqual({ delivered: 0, retried: 0, failed: 0 });
  expect(hooks.events).toHaveLength(before + types.length);
  const prisma = await db();
  for (const event of arrived) {
    const activity = await prisma.activityEvent.findUniqueOrThrow({ where: { id: String(event.data.event_id) } });
    expect(event.data).toMatchObject({ account_id: activity.userId, subject_id: activity.subjectId });
    expect(event.timestamp).toBe(activity.occurredAt.toISOString());
    // The webhook-id is the outbox message's, the one its every attempt carries.
    const message = (await messagesOf(endpointId)).find((row) => row.id === event.id);
    expect(message).toMatchObject({ activityEventId: activity.id, kind: activity.kind, outcome: "delivered", attempts: 1 });
    expect(event.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
  }
  return Object.fromEntries(arrived.map((event) => [event.type, event]));
}

/** An init with the client's report, approved by `who` into a new project named `name`. */
async function approvedInit(who: Person, name: string) {
  const init = await createdInit(CLIENT_REPORT);
  expect(await approvalError(init.id, who, { project: "new", name })).toBeNull();
  return init;
}

const eventIdOf = async (userId: string, kind: string, subjectId: string) =>
  (await (await db()).activityEvent.findUniqueOrThrow({ where: { userId_kind_subjectId: { userId, kind, subjectId } } })).id;

describe("each event type of a person's own", () => {
  it("init.approved: the project, the client's report, the approving browser and the access lifetime chosen", async () => {
    const { hooks, owner, endpoint } = await subscribed();
    const init = await approvedInit(owner, "Hooked");
    const { "init.approved": event } = await deliveredOnce(hooks, endpoint.id, ["init.approved"]);
    const row = await (await db()).init.findUniqueOrThrow({ where: { id: init.id } });
    expect(event.data).toEqual({
      event_id: await eventIdOf(owner.userId, "init_approved", init.id),
      subject_id: init.id,
      account_id: owner.userId,
      account_email: owner.email,
      project: { id: row.projectId, name: "Hooked" },
      client: CLIENT,
      request_ip: REQUEST_IP,
      token_name: null,
      iv: null,
      access_lifetime_seconds: row.accessLifetimeSeconds,
      reason: null,
      ...NOT_A_TEAM_EVENT,
    });
    expect(event.timestamp).toBe(row.decidedAt?.toISOString());
    expect(row.accessLifetimeSeconds).toBeGreaterThan(0);
  });

  it("init.denied: no project, the client's report and the denying browser", async () => {
    const { hooks, owner, endpoint } = await subscribed();
    const init = await createdInit(CLIENT_REPORT);
    expect((await deny(init.id, owner.session)).status).toBe(303);
    const { "init.denied": event } = await deliveredOnce(hooks, endpoint.id, ["init.denied"]);
    expect(event.data).toEqual({
      event_id: await eventIdOf(owner.userId, "init_denied", init.id),
      subject_id: init.id,
      account_id: owner.userId,
      account_email: owner.email,
      project: null,
      client: CLIENT,
      request_ip: REQUEST_IP,
      token_name: null,
      iv: null,
      access_lifetime_seconds: null,
      reason: null,
      ...NOT_A_TEAM_EVENT,
    });
    // Denying again changes nothing, and sends nothing.
    await deny(init.id, owner.session);
    expect(await deliverAll()).toEqual({ delivered: 0, retried: 0, failed: 0 });
  });

  it("init.expired: for the person who opened the request, dated by its expiry, once however often the sweep runs", async () => {
    const { hooks, owner, endpoint } = await subscribed();
    const other = await subscribed();
    const init = await createdInit(CLIENT_REPORT);
    // The init's page records that the signed-in person opened it (app/init/[id]/page.tsx).
    await recordInitOpened(owner.userId, init.id);
    const expiredAt = new Date(Date.now() - 120_000);
    await (await db()).init.update({ where: { id: init.id }, data: { expiresAt: expiredAt } });
    expect((await sweep(config())).expiries).toBe(1);
    expect((await sweep(config())).expiries).toBe(0);
    const { "init.expired": event } = await deliveredOnce(hooks, endpoint.id, ["init.expired"]);
    expect(event.data).toEqual({
      event_id: await eventIdOf(owner.userId, "init_expired", init.id),
      subject_id: init.id,
      account_id: owner.userId,
      // No one acted.
      account_email: null,
      project: null,
      client: CLIENT,
      // Where the client's request came from.
      request_ip: REQUEST_IP,
      token_name: null,
      iv: null,
      access_lifetime_seconds: null,
      reason: null,
      ...NOT_A_TEAM_EVENT,
    });
    expect(event.timestamp).toBe(expiredAt.toISOString());
    // Someone who never opened it hears nothing.
    expect(other.hooks.seen).toEqual([]);
  });

  it("link.created and link.revoked: the link's iv, the token that made it, the project", async () => {
    const { hooks, owner, endpoint } = await subscribed();
    const init = await approvedInit(owner, "Linked");
    const { access_token: accessToken, project_id: projectId } = await pickup(init);
    const link = await linked(projectId ?? "", accessToken ?? "");
    const prisma = await db();
    const token = await prisma.accessToken.findFirstOrThrow({ where: { links: { some: { id: link.link_id } } } });
    const created = await deliveredOnce(hooks, endpoint.id, ["init.approved", "link.created"]);
    expect(created["link.created"].data).toEqual({
      event_id: await eventIdOf(owner.userId, "link_created", link.link_id),
      subject_id: link.link_id,
      account_id: owner.userId,
      account_email: null,
      project: { id: projectId, name: "Linked" },
      client: CLIENT,
      request_ip: REQUEST_IP,
      token_name: token.name,
      iv: link.iv,
      access_lifetime_seconds: null,
      reason: null,
      ...NOT_A_TEAM_EVENT,
    });

    expect((await revokeLinkForm(owner.session, projectId ?? "", link.link_id)).status).toBe(303);
    // Revoking it again revokes nothing more.
    await revokeLinkForm(owner.session, projectId ?? "", link.link_id);
    const revoked = await deliveredOnce(hooks, endpoint.id, ["link.revoked"]);
    expect(revoked["link.revoked"].data).toEqual({
      event_id: await eventIdOf(owner.userId, "link_revoked", link.link_id),
      subject_id: link.link_id,
      account_id: owner.userId,
      account_email: owner.email,
      project: { id: projectId, name: "Linked" },
      client: null,
      request_ip: null,
      token_name: token.name,
      iv: link.iv,
      access_lifetime_seconds: null,
      reason: null,
      ...NOT_A_TEAM_EVENT,
    });
  });

  it("access_token.created and access_token.revoked: the token by its name, for all projects or one", async () => {
    const { hooks, owner, endpoint } = await subscribed();
    const made = (await (await createTokenForm(owner.session, { name: "deploy bot", scope: "all", lifetime: "30" })).json()) as { id: string };
    const created = await deliveredOnce(hooks, endpoint.id, ["access_token.created"]);
    const expected = {
      subject_id: made.id,
      account_id: owner.userId,
      account_email: owner.email,
      project: null,
      client: null,
      request_ip: null,
      token_name: "deploy bot",
      iv: null,
      access_lifetime_seconds: null,
      reason: null,
      ...NOT_A_TEAM_EVENT,
    };
    expect(created["access_token.created"].data).toEqual({ event_id: await eventIdOf(owner.userId, "access_token_created", made.id), ...expected });

    expect((await revokeTokenForm(owner.session, made.id)).status).toBe(303);
    await revokeTokenForm(owner.session, made.id);
    const revoked = await deliveredOnce(hooks, endpoint.id, ["access_token.revoked"]);
    expect(revoked["access_token.revoked"].data).toEqual({ event_id: await eventIdOf(owner.userId, "access_token_revoked", made.id), ...expected });
    expect(revoked["access_token.revoked"].timestamp).toBe((await (await db()).accessToken.findUniqueOrThrow({ where: { id: made.id } })).revokedAt?.toISOString());

    // A token for one project names it.
    const init = await approvedInit(owner, "Scoped");
    const scoped = (await (await createTokenForm(owner.session, { name: "one project", scope: init.id, lifetime: "7" })).json()) as { id: string };
    const withProject = await deliveredOnce(hooks, endpoint.id, ["init.approved", "access_token.created"]);
    expect(withProject["access_token.created"].data).toMatchObject({ subject_id: scoped.id, token_name: "one project", project: { id: init.id, name: "Scoped" } });
  });

  it("oauth_login.revoked: revoked by its client (RFC 7009), reason revoked", async () => {
    const login = await loggedIn("OAuth revoked");
    const { hooks, owner, endpoint } = await subscribed({ email: login.person.email, session: login.person.token, userId: login.userId });
    const second = await tokensOf(await refresh(login.tokens.refresh_token));
    expect((await revoke(second.refresh_token)).status).toBe(200);
    // Revoked already: nothing more.
    expect((await revoke(second.refresh_token)).status).toBe(200);
    const { "oauth_login.revoked": event } = await deliveredOnce(hooks, endpoint.id, ["oauth_login.revoked"]);
    const prisma = await db();
    const row = await prisma.oAuthLogin.findFirstOrThrow({ where: { userId: owner.userId } });
    const latest = await prisma.accessToken.findFirstOrThrow({ where: { refreshTokens: { some: { id: row.currentTokenId } } } });
    expect(event.data).toEqual({
      event_id: await eventIdOf(owner.userId, "oauth_login_revoked", row.id),
      subject_id: row.id,
      account_id: owner.userId,
      account_email: null,
      project: { id: login.tokens.project_id, name: "OAuth revoked" },
      client: { sender: "@acme/cli", device: null, os: null, reported_ip: null },
      request_ip: REQUEST_IP,
      token_name: latest.name,
      iv: null,
      access_lifetime_seconds: null,
      reason: "revoked",
      ...NOT_A_TEAM_EVENT,
    });
    expect(event.timestamp).toBe(row.revokedAt?.toISOString());
  });

  it("oauth_login.revoked: a used refresh token came back, reason refresh_reused", async () => {
    const login = await loggedIn("OAuth reused");
    const { hooks, owner, endpoint } = await subscribed({ email: login.person.email, session: login.person.token, userId: login.userId });
    const second = await tokensOf(await refresh(login.tokens.refresh_token));
    await tokensOf(await refresh(second.refresh_token));
    // Two refreshes back: reuse, however soon; the login ends once.
    expect((await refresh(login.tokens.refresh_token)).status).toBe(400);
    expect((await refresh(login.tokens.refresh_token)).status).toBe(400);
    const { "oauth_login.revoked": event } = await deliveredOnce(hooks, endpoint.id, ["oauth_login.revoked"]);
    const row = await (await db()).oAuthLogin.findFirstOrThrow({ where: { userId: owner.userId } });
    expect(row.revokedReason).toBe("reuse");
    expect(event.data).toMatchObject({
      event_id: await eventIdOf(owner.userId, "oauth_refresh_reused", row.id),
      subject_id: row.id,
      project: { id: login.tokens.project_id, name: "OAuth reused" },
      reason: "refresh_reused",
    });
  });

  it("approval.reported: the approval reported, its project and client, from the reporting browser", async () => {
    const { hooks, owner, endpoint } = await subscribed();
    const init = await approvedInit(owner, "Not mine");
    const { access_token: accessToken } = await pickup(init);
    await linked(init.id, accessToken ?? "");
    await deliveredOnce(hooks, endpoint.id, ["init.approved", "link.created"]);

    const report = () =>
      dispatch("POST", `/activity/approvals/${encodeURIComponent(init.id)}/report`, {
        body: new URLSearchParams({ from: "activity" }).toString(),
        headers: { origin: SITE, "content-type": "application/x-www-form-urlencoded", ...cookieHeader(owner.session) },
      });
    expect((await report()).status).toBe(303);
    await report();
    // What the report revoked (the token, the link) is told by the report's own event.
    const { "approval.reported": event } = await deliveredOnce(hooks, endpoint.id, ["approval.reported"]);
    expect(event.data).toEqual({
      event_id: await eventIdOf(owner.userId, "approval_reported", init.id),
      subject_id: init.id,
      account_id: owner.userId,
      account_email: owner.email,
      project: { id: init.id, name: "Not mine" },
      client: CLIENT,
      request_ip: REQUEST_IP,
      token_name: null,
      iv: null,
      access_lifetime_seconds: null,
      reason: null,
      ...NOT_A_TEAM_EVENT,
    });
  });
});
