import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/database/db";
import { config } from "@/lib/config";
import { DELIVERY_LOG_RETENTION_MS, RESPONSE_BODY_BYTES } from "@/lib/events/delivery";
import { sweep } from "@/lib/maintenance/sweep";
import { person, settingsToken, type Person } from "../../helpers/teams";
import {
  ahead,
  attemptsOf,
  deliverAll,
  deleteEndpointForm,
  deliverOnce,
  enableEndpointForm,
  endpointFor,
  messagesOf,
  resendForm,
  settled,
  startReceiver,
  testEventForm,
  type Receiver,
} from "../../helpers/webhooks";

// Delivery (lib/events/delivery.ts): at least once, and in practice exactly once, through a
// receiver that is down, failing or back; the retry schedule spent; Send again and the test
// event. Time moves by handing the delivery pass a later clock (ahead), not by waiting out the
// schedule.

beforeAll(() => {
  // Three retries, 5 s apart: four attempts, then the message has failed. No test waits for them
  // (NEXT_RETRY), and a pass that ends well within 4 s never finds its own retry due.
  Object.assign(process.env, { OUTBOUND_ALLOW_PRIVATE: "true", WEBHOOK_RETRY_SCHEDULE: "5s,5s,5s" });
});

const receivers: Receiver[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

async function receiver(): Promise<Receiver> {
  const started = await startReceiver();
  receivers.push(started);
  return started;
}

/** Past the longest wait of the schedule with its jitter (5 s + 20 %): every retry scheduled so far is due. */
const NEXT_RETRY = ahead(6500);
/** One pass at NEXT_RETRY's time: each message due gets one attempt (deliverAll would go on through the whole schedule). */
const retryPass = () => deliverOnce(NEXT_RETRY());

/** `count` access tokens made on the settings page: one access_token.created each. */
async function tokensMade(who: Person, count: number): Promise<string[]> {
  const made: string[] = [];
  for (let index = 0; index < count; index++) made.push((await settingsToken(who, "all")).id);
  return made;
}

const tokenIdsOf = (events: Receiver["events"]) => events.map((event) => event.data.subject_id).sort();

describe("delivery", () => {
  it("delivers every event once after the receiver was down (connection refused) and came back", async () => {
    const hooks = await receiver();
    const owner = await person();
    const endpoint = await endpointFor(owner, hooks, ["access_token.created"]);
    await hooks.down();
    const tokens = await tokensMade(owner, 3);

    expect(await deliverAll()).toEqual({ delivered: 0, retried: 3, failed: 0 });
    const refused = await attemptsOf(endpoint.id);
    expect(refused.map((attempt) => [attempt.attempt, attempt.statusCode, attempt.error])).toEqual(Array(3).fill([1, null, "connection refused"]));
    expect(await (await db()).webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).toMatchObject({ failingSince: expect.any(Date), disabledAt: null });
    // Not due yet: a pass now sends nothing.
    expect(await deliverAll()).toEqual({ delivered: 0, retried: 0, failed: 0 });

    await hooks.up();
    expect(await deliverAll(NEXT_RETRY)).toEqual({ delivered: 3, retried: 0, failed: 0 });
    expect(tokenIdsOf(hooks.events)).toEqual([...tokens].sort());
    const messages = await messagesOf(endpoint.id);
    expect(messages.map((message) => [message.outcome, message.attempts, message.failures])).toEqual(Array(3).fill(["delivered", 2, 1]));
    expect(hooks.events.map((event) => event.id).sort()).toEqual(messages.map((message) => message.id).sort());
    expect(hooks.seen).toHaveLength(3);
    expect(hooks.rejected).toEqual([]);
    // Delivered is over: nothing more, now or later.
    expect(await deliverAll(ahead(60_000))).toEqual({ delivered: 0, retried: 0, failed: 0 });
    expect(hooks.seen).toHaveLength(3);
    const endpointRow = await (await db()).webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(endpointRow).toMatchObject({ failingSince: null, disabledAt: null });
  });

  it("tries again after a 500, keeping the start of its answer in the log, and delivers each event once", async () => {
    const hooks = await receiver();
    const owner = await person();
    const endpoint = await endpointFor(owner, hooks, ["access_token.created"]);
    hooks.behave({ kind: "status", status: 500 });
    const tokens = await tokensMade(owner, 2);

    expect(await deliverAll()).toEqual({ delivered: 0, retried: 2, failed: 0 });
    expect(await retryPass()).toEqual({ delivered: 0, retried: 2, failed: 0 });
    const failed = await attemptsOf(endpoint.id);
    expect(failed).toHaveLength(4);
    for (const attempt of failed) {
      expect(attempt).toMatchObject({ statusCode: 500, error: "answered 500" });
      // The receiver's answer is 2,000 and more bytes: the log keeps the first RESPONSE_BODY_BYTES.
      expect(attempt.responseBody).toBe(`failing on purpose ${"x".repeat(2000)}`.slice(0, RESPONSE_BODY_BYTES));
    }

    hooks.behave({ kind: "ok" });
    expect(await deliverAll(NEXT_RETRY)).toEqual({ delivered: 2, retried: 0, failed: 0 });
    expect(tokenIdsOf(hooks.events)).toEqual([...tokens].sort());
    // Each message reached the receiver three times, with one webhook-id: a receiver de-duplicates on it.
    const messages = await messagesOf(endpoint.id);
    for (const message of messages) expect(hooks.seen.filter((id) => id === message.id)).toHaveLength(3);
    expect(messages.map((message) => message.outcome)).toEqual(["delivered", "delivered"]);
    expect(await deliverAll(ahead(60_000))).toEqual({ delivered: 0, retried: 0, failed: 0 });
    expect(hooks.events).toHaveLength(2);
  });

  it("keeps an answer's control characters out of the log: a NUL that PostgreSQL's text refuses cannot stop the attempts of a batch being recorded", async () => {
    const hostile = await receiver();
    const fine = await receiver();
    const owner = await person();
    const hostileEndpoint = await endpointFor(owner, hostile, ["access_token.created"]);
    const fineEndpoint = await endpointFor(owner, fine, ["access_token.created"]);
    hostile.behave({ kind: "status", status: 500, body: "bad\u0000body\u0007\tend\n" });
    await tokensMade(owner, 1);
    // Both attempts in one pass, recorded together: the fine endpoint's delivery is recorded, not sent again.
    expect(await deliverAll()).toEqual({ delivered: 1, retried: 1, failed: 0 });
    const [attempt] = await attemptsOf(hostileEndpoint.id);
    expect(attempt).toMatchObject({ statusCode: 500, responseBody: "bad\uFFFDbody\uFFFD\tend\n" });
    expect(await messagesOf(fineEndpoint.id)).toEqual([expect.objectContaining({ outcome: "delivered" })]);
    expect(fine.seen).toHaveLength(1);
    // Its retry would be due in the later tests' passes.
    expect((await deleteEndpointForm(owner.session, hostileEndpoint.id)).status).toBe(303);
  });

  it("after the whole schedule the message has failed and the endpoint is disabled as failing, once, with one activity event", async () => {
    const hooks = await receiver();
    const owner = await person();
    const endpoint = await endpointFor(owner, hooks, ["access_token.created", "access_token.revoked"]);
    await hooks.down();
    await tokensMade(owner, 1);

    expect(await deliverAll()).toEqual({ delivered: 0, retried: 1, failed: 0 });
    expect(await retryPass()).toEqual({ delivered: 0, retried: 1, failed: 0 });
    expect(await retryPass()).toEqual({ delivered: 0, retried: 1, failed: 0 });
    expect(await retryPass()).toEqual({ delivered: 0, retried: 0, failed: 1 });

    const prisma = await db();
    const [message] = await messagesOf(endpoint.id);
    expect(message).toMatchObject({ outcome: "failed", attempts: 4, failures: 4, claimedUntil: null, endedAt: expect.any(Date) });
    expect((await attemptsOf(endpoint.id)).map((attempt) => attempt.attempt)).toEqual([1, 2, 3, 4]);
    expect(await prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).toMatchObject({ disabledAt: expect.any(Date), disabledReason: "failing" });
    const disabled = await prisma.activityEvent.findMany({ where: { userId: owner.userId, kind: "webhook_endpoint_disabled" } });
    expect(disabled).toEqual([expect.objectContaining({ userId: owner.userId, subjectId: message.id, tokenName: new URL(hooks.url).origin, teamId: null })]);

    // Disabled: a failed message is not tried again, and a new event queues nothing.
    await hooks.up();
    await tokensMade(owner, 1);
    expect(await deliverAll(ahead(60_000))).toEqual({ delivered: 0, retried: 0, failed: 0 });
    expect(await messagesOf(endpoint.id)).toHaveLength(1);
    expect(hooks.seen).toEqual([]);
    expect(await prisma.activityEvent.count({ where: { userId: owner.userId, kind: "webhook_endpoint_disabled" } })).toBe(1);

    // Enabled again, it is healthy and receives what happens next; the failed message stays failed until sent again.
    expect((await enableEndpointForm(owner.session, endpoint.id)).status).toBe(303);
    expect(await prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).toMatchObject({ disabledAt: null, disabledReason: null, failingSince: null });
    const [next] = await tokensMade(owner, 1);
    expect(await deliverAll()).toEqual({ delivered: 1, retried: 0, failed: 0 });
    expect(tokenIdsOf(hooks.events)).toEqual([next]);
  });

  it("does not disable an endpoint that received something after the failed message was made", async () => {
    const hooks = await receiver();
    const owner = await person();
    const endpoint = await endpointFor(owner, hooks, ["access_token.created"]);
    hooks.behave({ kind: "status", status: 503 });
    await tokensMade(owner, 1);
    expect(await deliverAll()).toEqual({ delivered: 0, retried: 1, failed: 0 });

    // A second event is delivered while the first waits for its retry.
    hooks.behave({ kind: "ok" });
    await tokensMade(owner, 1);
    expect(await deliverAll()).toEqual({ delivered: 1, retried: 0, failed: 0 });

    hooks.behave({ kind: "status", status: 503 });
    for (let pass = 0; pass < 2; pass++) expect(await retryPass()).toEqual({ delivered: 0, retried: 1, failed: 0 });
    expect(await retryPass()).toEqual({ delivered: 0, retried: 0, failed: 1 });

    const prisma = await db();
    expect(await prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).toMatchObject({ disabledAt: null, disabledReason: null, failingSince: expect.any(Date) });
    expect(await prisma.activityEvent.count({ where: { userId: owner.userId, kind: "webhook_endpoint_disabled" } })).toBe(0);
    expect((await messagesOf(endpoint.id)).map((message) => message.outcome)).toEqual(["failed", "delivered"]);
  });

  it("disables an endpoint once, with one activity event, when many of its messages fail in the same pass, in the same millisecond", async () => {
    const hooks = await receiver();
    const owner = await person();
    const endpoint = await endpointFor(owner, hooks, ["access_token.created"]);
    await hooks.down();
    await tokensMade(owner, 6);
    expect(await deliverAll()).toEqual({ delivered: 0, retried: 6, failed: 0 });
    // Every message's attempts in the same passes, the last one too; in the last, the clock
    // stands still, so that each failed message finds the endpoint disabled at the very time
    // it would disable it itself.
    for (let pass = 0; pass < 2; pass++) expect(await retryPass()).toEqual({ delivered: 0, retried: 6, failed: 0 });
    vi.useFakeTimers({ toFake: ["Date"], now: NEXT_RETRY() });
    expect(await deliverOnce(new Date())).toEqual({ delivered: 0, retried: 0, failed: 6 });
    vi.useRealTimers();
    const prisma = await db();
    expect(await prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).toMatchObject({ disabledReason: "failing" });
    expect(await prisma.activityEvent.count({ where: { userId: owner.userId, kind: "webhook_endpoint_disabled" } })).toBe(1);
  });

  it("sends a message again with the same webhook-id from the start of the schedule (Send again)", async () => {
    const hooks = await receiver();
    const owner = await person();
    const endpoint = await endpointFor(owner, hooks, ["access_token.created"]);
    const [token] = await tokensMade(owner, 1);
    expect(await deliverAll()).toEqual({ delivered: 1, retried: 0, failed: 0 });
    const [message] = await messagesOf(endpoint.id);

    const answer = await resendForm(owner.session, endpoint.id, message.id);
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe(`https://initlink.test/webhooks/${endpoint.id}?resent=1`);
    // The form starts a delivery pass at once: the receiver is reached without one of the test's.
    await hooks.reached(2);
    await settled(endpoint.id);
    expect(hooks.events.map((event) => [event.id, event.type, event.data.subject_id])).toEqual([
      [message.id, "access_token.created", token],
      [message.id, "access_token.created", token],
    ]);
    // The same body each time: a receiver may compare a resent event with the one it has.
    expect(hooks.events[1].timestamp).toBe(hooks.events[0].timestamp);
    expect(hooks.events[1].data).toEqual(hooks.events[0].data);
    expect(await messagesOf(endpoint.id)).toEqual([expect.objectContaining({ id: message.id, outcome: "delivered", attempts: 2, failures: 0 })]);
    expect(await deliverAll()).toEqual({ delivered: 0, retried: 0, failed: 0 });
    expect(hooks.seen).toHaveLength(2);
  });

  it("sends a failed message again once the endpoint is back, and a pending one is left as it is", async () => {
    const hooks = await receiver();
    const owner = await person();
    const endpoint = await endpointFor(owner, hooks, ["access_token.created"]);
    hooks.behave({ kind: "status", status: 500 });
    await tokensMade(owner, 1);
    expect(await deliverAll()).toEqual({ delivered: 0, retried: 1, failed: 0 });
    const [pending] = await messagesOf(endpoint.id);
    // Pending already: Send again changes nothing, and answers as a success.
    const before = await messagesOf(endpoint.id);
    expect((await resendForm(owner.session, endpoint.id, pending.id)).headers.get("location")).toBe(`https://initlink.test/webhooks/${endpoint.id}?resent=1`);
    expect(await messagesOf(endpoint.id)).toEqual(before);

    const prisma = await db();
    await prisma.webhookMessage.update({ where: { id: pending.id }, data: { nextAttemptAt: new Date() } });
    for (let pass = 0; pass < 2; pass++) expect(await retryPass()).toEqual({ delivered: 0, retried: 1, failed: 0 });
    expect(await retryPass()).toEqual({ delivered: 0, retried: 0, failed: 1 });
    expect(await prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).toMatchObject({ disabledReason: "failing" });
    expect((await enableEndpointForm(owner.session, endpoint.id)).status).toBe(303);

    hooks.behave({ kind: "ok" });
    const seenBefore = hooks.seen.length;
    await resendForm(owner.session, endpoint.id, pending.id);
    await hooks.reached(seenBefore + 1);
    await settled(endpoint.id);
    expect(hooks.events.map((event) => event.id)).toEqual([pending.id]);
    expect(await messagesOf(endpoint.id)).toEqual([expect.objectContaining({ id: pending.id, outcome: "delivered", failures: 0, attempts: 5 })]);
  });

  it("sends a test event as webhook.test, to that endpoint alone, at once", async () => {
    const hooks = await receiver();
    const other = await receiver();
    const owner = await person();
    const endpoint = await endpointFor(owner, hooks, ["init.approved"]);
    const sibling = await endpointFor(owner, other, ["init.approved"]);
    const answer = await testEventForm(owner.session, endpoint.id);
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe(`https://initlink.test/webhooks/${endpoint.id}?tested=1`);
    await hooks.reached(1);
    await settled(endpoint.id);
    const [message] = await messagesOf(endpoint.id);
    expect(hooks.events).toEqual([expect.objectContaining({ id: message.id, type: "webhook.test", data: { endpoint_id: endpoint.id } })]);
    expect(Date.parse(hooks.events[0].timestamp)).toBe(message.occurredAt.getTime());
    expect(message).toMatchObject({ kind: "test", outcome: "delivered", activityEventId: null });
    expect(await messagesOf(sibling.id)).toEqual([]);
    expect(other.seen).toEqual([]);
    expect(await deliverAll()).toEqual({ delivered: 0, retried: 0, failed: 0 });
    expect(hooks.seen).toHaveLength(1);
  });

  it("keeps the delivery log for a week: the sweep deletes ended messages and old attempts, never a message still to be sent", async () => {
    const hooks = await receiver();
    const owner = await person();
    const endpoint = await endpointFor(owner, hooks, ["access_token.created"]);
    hooks.behave({ kind: "status", status: 500 });
    await tokensMade(owner, 2);
    expect(await deliverAll()).toEqual({ delivered: 0, retried: 2, failed: 0 });
    hooks.behave({ kind: "ok" });
    const [ended, pending] = await messagesOf(endpoint.id);
    await (await db()).webhookMessage.update({ where: { id: ended.id }, data: { nextAttemptAt: new Date() } });
    expect(await deliverOnce()).toEqual({ delivered: 1, retried: 0, failed: 0 });

    // A week and a minute later: the delivered message goes with its attempts; the pending one stays, its old attempt gone.
    const later = Date.now() + DELIVERY_LOG_RETENTION_MS + 60_000;
    // (The other tests' messages in this file's database are a week old by then too.)
    expect((await sweep(config(), later)).webhookMessages).toBeGreaterThanOrEqual(4);
    expect((await messagesOf(endpoint.id)).map((message) => message.id)).toEqual([pending.id]);
    expect(await attemptsOf(endpoint.id)).toEqual([]);
    expect((await sweep(config(), later)).webhookMessages).toBe(0);
    // Still sent when it is due.
    expect(await deliverAll(NEXT_RETRY)).toEqual({ delivered: 1, retried: 0, failed: 0 });
    expect(hooks.events.map((event) => event.id)).toEqual([ended.id, pending.id]);
  });
});
