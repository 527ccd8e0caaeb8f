import { describe, expect, it } from "vitest";
import { listActivity, type ActivityEntry } from "@/lib/activity/list-activity";
import { recordInitOpened } from "@/lib/activity/record-activity";
import { config } from "@/lib/config";
import { db } from "@/lib/database/db";
import { sweep } from "@/lib/maintenance/sweep";
import { PEER_ADDRESS_HEADER } from "@/server/request-context.mjs";
import { getInitStatus } from "../../helpers/api";
import { approve, createTokenForm, deny, newAccount, revokeLinkForm, revokeTokenForm } from "../../helpers/forms";
import { inProcess } from "../../helpers/in-process";
import { createInit, createLink } from "../../helpers/journey.mjs";
import { randomIv } from "../../helpers/links";

// The account's activity (docs/activity.md): each change writes its event with where it came
// from, for the account concerned only, and only if the change was made.

const APPROVE_NEW = { project: "new", name: "Activity app", code_confirmed: "yes" };
const REPORT = { sender: "@acme/cli", sender_device: "laptop", sender_os: "linux", sender_ip: "8.8.4.4" };
const FROM_CLIENT = { [PEER_ADDRESS_HEADER]: "198.51.100.9", "user-agent": "acme-cli/1.0" };
const BROWSER_UA = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";
// On the client's network: a client that shows no code is approved from there only (lib/init/code-check-mode.ts).
const FROM_BROWSER = { [PEER_ADDRESS_HEADER]: "198.51.100.200", "user-agent": BROWSER_UA };

async function person() {
  const account = await newAccount();
  const prisma = await db();
  const user = await prisma.user.findUniqueOrThrow({ where: { email: account.email }, select: { id: true } });
  return { ...account, id: user.id };
}

const activity = async (userId: string): Promise<ActivityEntry[]> => (await listActivity(userId, undefined)).entries;
const groups = async (userId: string) => (await listActivity(userId, undefined)).groups;

async function eventCount(): Promise<number> {
  const prisma = await db();
  return prisma.activityEvent.count();
}

/** What the client reported at Create Init and where its request came from. */
const INIT_ORIGIN = {
  sender: "@acme/cli",
  senderDevice: "laptop",
  senderOs: "linux",
  senderIp: "8.8.4.4",
  observedIp: "198.51.100.9",
  observedUserAgent: "acme-cli/1.0",
  addressMismatch: true,
};

describe("an account's activity", () => {
  it("records each change with where it came from, newest first, for the account concerned only", async () => {
    const alice = await person();
    const bob = await person();
    const init = await createInit(inProcess, REPORT, FROM_CLIENT);

    expect((await approve(init.id, alice.token, APPROVE_NEW, FROM_BROWSER)).headers.get("location")).not.toContain("error=");
    const project = { id: init.id, name: "Activity app" };
    // The client collects its token from another address than the one it started from.
    const pickup = await (
      await getInitStatus(init.id, { authorization: `Bearer ${init.secret}`, [PEER_ADDRESS_HEADER]: "198.51.100.10", "user-agent": "acme-cli/1.0 pickup" })
    ).json();
    expect(pickup.access_token).toBeDefined();
    const iv = randomIv();
    const link = await createLink(inProcess, init.id, pickup.access_token, { iv, headers: { [PEER_ADDRESS_HEADER]: "192.0.2.44", "user-agent": "acme-cli/2.0" } });
    expect((await revokeLinkForm(alice.token, init.id, link.link_id)).status).toBe(303);
    const made = await (await createTokenForm(alice.token, { name: "deploy bot", scope: init.id, lifetime: "30" })).json();
    expect((await revokeTokenForm(alice.token, made.id)).status).toBe(303);
    const unwanted = await createInit(inProcess, { sender: "stranger" }, { [PEER_ADDRESS_HEADER]: "192.0.2.99", "user-agent": "curl/8" });
    expect((await deny(unwanted.id, alice.token, FROM_BROWSER)).status).toBe(303);

    const events = await activity(alice.id);
    // Each once (two made in the same millisecond may come in either order).
    expect(events.map((event) => event.kind).sort()).toEqual(
      ["access_token_created", "access_token_revoked", "init_approved", "init_denied", "link_created", "link_revoked", "token_collected"],
    );
    const byKind = Object.fromEntries(events.map((event) => [event.kind, event]));
    // A decision says where the deciding browser was, not the client (whose address is in the other events).
    const FROM_DECIDER = { observedIp: "198.51.100.200", observedUserAgent: BROWSER_UA, addressMismatch: false };
    expect(byKind.init_approved).toMatchObject({ subjectId: init.id, project, decidedBy: alice.email, ...INIT_ORIGIN, ...FROM_DECIDER });
    expect(byKind.token_collected).toMatchObject({
      subjectId: init.id,
      project,
      ...INIT_ORIGIN,
      observedIp: "198.51.100.10",
      observedUserAgent: "acme-cli/1.0 pickup",
      tokenName: "@acme/cli on laptop",
      decidedBy: null,
    });
    // The link names the client's report at Create Init (through the init that issued its token) and its own request.
    expect(byKind.link_created).toMatchObject({
      subjectId: link.link_id,
      project,
      ...INIT_ORIGIN,
      observedIp: "192.0.2.44",
      observedUserAgent: "acme-cli/2.0",
      tokenName: "@acme/cli on laptop",
      iv,
      decidedBy: null,
    });
    expect(byKind.link_revoked).toMatchObject({ subjectId: link.link_id, project, observedUserAgent: "acme-cli/2.0", iv, decidedBy: alice.email });
    expect(byKind.access_token_created).toMatchObject({ subjectId: made.id, project, tokenName: "deploy bot", decidedBy: alice.email });
    expect(byKind.access_token_revoked).toMatchObject({ subjectId: made.id, project, tokenName: "deploy bot", decidedBy: alice.email });
    expect(byKind.init_denied).toMatchObject({
      subjectId: unwanted.id,
      project: null,
      sender: "stranger",
      senderIp: null,
      ...FROM_DECIDER,
      decidedBy: alice.email,
    });
    const times = events.map((event) => event.occurredAt.getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));
    // Another account sees none of it.
    expect(await activity(bob.id)).toEqual([]);
  });

  // A login is one entry, its steps oldest first; anything else stands alone.
  it("groups a login's events into one entry: opened, approved, token collected, the links its token made", async () => {
    const alice = await person();
    const init = await createInit(inProcess, REPORT, FROM_CLIENT);
    await recordInitOpened(alice.id, init.id);
    await approve(init.id, alice.token, APPROVE_NEW, FROM_BROWSER);
    const pickup = await (await getInitStatus(init.id, { authorization: `Bearer ${init.secret}` })).json();
    const first = await createLink(inProcess, init.id, pickup.access_token);
    const second = await createLink(inProcess, init.id, pickup.access_token);
    const made = await (await createTokenForm(alice.token, { name: "deploy bot", scope: "all", lifetime: "30" })).json();
    const denied = await createInit(inProcess, REPORT, FROM_CLIENT);
    await deny(denied.id, alice.token, FROM_BROWSER);

    const entries = await groups(alice.id);
    expect(entries.map((group) => [group.initId, group.events.map((event) => event.kind)])).toEqual([
      [denied.id, ["init_denied"]],
      [null, ["access_token_created"]],
      [init.id, ["init_opened", "init_approved", "token_collected", "link_created", "link_created"]],
    ]);
    const login = entries[2].events;
    expect(login.slice(3).map((event) => event.subjectId).sort()).toEqual([first.link_id, second.link_id].sort());
    expect(entries[1].events[0].subjectId).toBe(made.id);
  });

  it("shows a link alone once the init that issued its token is swept", async () => {
    const alice = await person();
    const init = await createInit(inProcess, REPORT, FROM_CLIENT);
    await approve(init.id, alice.token, APPROVE_NEW, FROM_BROWSER);
    const pickup = await (await getInitStatus(init.id, { authorization: `Bearer ${init.secret}` })).json();
    const link = await createLink(inProcess, init.id, pickup.access_token);
    const prisma = await db();
    await prisma.init.updateMany({ where: { id: init.id }, data: { expiresAt: new Date(Date.now() - config().initRetentionMs - 1000) } });
    expect((await sweep(config())).inits).toBeGreaterThanOrEqual(1);
    expect((await groups(alice.id)).map((group) => [group.initId, group.events.map((event) => event.subjectId)])).toEqual([
      [null, [link.link_id]],
      [init.id, [init.id, init.id]],
    ]);
  });

  it("records nothing for a refused or repeated action", async () => {
    const alice = await person();
    const bob = await person();
    const init = await createInit(inProcess, REPORT, FROM_CLIENT);
    const before = await eventCount();
    // Refused: the code not confirmed, an empty token name.
    expect((await approve(init.id, alice.token, { project: "new", name: "x" }, FROM_BROWSER)).headers.get("location")).toContain("error=");
    expect((await createTokenForm(alice.token, { name: "  ", scope: "all", lifetime: "30" })).status).toBe(400);
    expect(await eventCount()).toBe(before);

    await approve(init.id, alice.token, APPROVE_NEW, FROM_BROWSER);
    const pickup = await (await getInitStatus(init.id, { authorization: `Bearer ${init.secret}` })).json();
    const link = await createLink(inProcess, init.id, pickup.access_token);
    const afterChanges = await eventCount();
    // Refused: approving or denying a decided init, by its approver or by another account;
    // revoking another account's link or token; a second pickup; a wrong secret; the same link again.
    for (const token of [alice.token, bob.token]) {
      expect((await approve(init.id, token, APPROVE_NEW)).headers.get("location")).toContain("error=init_not_pending");
      expect((await deny(init.id, token)).headers.get("location")).toContain("error=init_not_pending");
    }
    expect((await revokeLinkForm(bob.token, init.id, link.link_id)).headers.get("location")).toContain("error=not_found");
    const prisma = await db();
    const collected = await prisma.accessToken.findFirstOrThrow({ where: { userId: alice.id }, select: { id: true } });
    expect((await revokeTokenForm(bob.token, collected.id)).headers.get("location")).toContain("error=not_found");
    expect((await getInitStatus(init.id, { authorization: "Bearer ilis_wrong" })).status).toBe(401);
    const again = await createLink(inProcess, init.id, pickup.access_token, { iv: link.iv });
    expect(again.link_id).toBe(link.link_id);
    expect(await eventCount()).toBe(afterChanges);

    // Revoking twice records one revocation.
    await revokeLinkForm(alice.token, init.id, link.link_id);
    await revokeLinkForm(alice.token, init.id, link.link_id);
    expect((await activity(alice.id)).filter((event) => event.kind === "link_revoked")).toHaveLength(1);
    expect(await activity(bob.id)).toEqual([]);
  });

  it("records an opened init that expires undecided once, and an opened init that was decided not at all", async () => {
    const alice = await person();
    const bob = await person();
    const lapsed = await createInit(inProcess, REPORT, FROM_CLIENT);
    const approved = await createInit(inProcess, REPORT, FROM_CLIENT);
    await recordInitOpened(alice.id, lapsed.id);
    await recordInitOpened(alice.id, lapsed.id);
    await recordInitOpened(alice.id, approved.id);
    await approve(approved.id, alice.token, APPROVE_NEW, FROM_BROWSER);
    expect((await activity(alice.id)).filter((event) => event.kind === "init_opened")).toHaveLength(2);
    expect((await activity(alice.id)).find((event) => event.kind === "init_opened" && event.subjectId === lapsed.id)).toMatchObject(INIT_ORIGIN);

    const prisma = await db();
    const expiredAt = new Date(Date.now() - 120_000);
    await prisma.init.updateMany({ where: { id: { in: [lapsed.id, approved.id] } }, data: { expiresAt: expiredAt } });
    expect((await sweep(config())).expiries).toBe(1);
    expect((await sweep(config())).expiries).toBe(0);
    const expiries = (await activity(alice.id)).filter((event) => event.kind === "init_expired");
    expect(expiries).toEqual([expect.objectContaining({ subjectId: lapsed.id, occurredAt: expiredAt, decidedBy: null, ...INIT_ORIGIN })]);
    expect(await activity(bob.id)).toEqual([]);
  });

  it("outlives the init it records, and the sweep deletes events past ACTIVITY_RETENTION_DAYS", async () => {
    const alice = await person();
    const old = await createInit(inProcess, REPORT, FROM_CLIENT);
    const recent = await createInit(inProcess, REPORT, FROM_CLIENT);
    await deny(old.id, alice.token);
    await deny(recent.id, alice.token);
    const prisma = await db();
    // The inits are past their retention and swept; their events stay until theirs.
    await prisma.init.updateMany({ where: { id: { in: [old.id, recent.id] } }, data: { expiresAt: new Date(Date.now() - config().initRetentionMs - 1000) } });
    await prisma.activityEvent.updateMany({ where: { subjectId: old.id }, data: { occurredAt: new Date(Date.now() - config().activityRetentionMs - 1000) } });
    const removed = await sweep(config());
    expect(removed.inits).toBeGreaterThanOrEqual(2);
    expect(removed.activityEvents).toBe(1);
    expect((await activity(alice.id)).map((event) => [event.kind, event.subjectId])).toEqual([["init_denied", recent.id]]);
  });

  it("pages newest first without repeating or skipping an event", async () => {
    const alice = await person();
    const inits = [];
    for (let index = 0; index < 5; index++) inits.push(await createInit(inProcess, { sender: `client ${index}` }, FROM_CLIENT));
    for (const init of inits) await deny(init.id, alice.token);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 3; page++) {
      const result = await listActivity(alice.id, cursor, 2);
      seen.push(...result.entries.map((event) => event.subjectId));
      if (result.olderCursor === null) break;
      cursor = result.olderCursor;
    }
    expect(seen).toEqual((await activity(alice.id)).map((event) => event.subjectId));
    expect(new Set(seen)).toEqual(new Set(inits.map((init) => init.id)));
    // Not a cursor: the first page.
    expect((await listActivity(alice.id, "not a cursor", 2)).entries.map((event) => event.subjectId)).toEqual(seen.slice(0, 2));
  });
});
