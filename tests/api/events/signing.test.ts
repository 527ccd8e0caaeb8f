import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { db } from "@/lib/database/db";
import { person, settingsToken } from "../../helpers/teams";
import { ahead, attemptsOf, deliverAll, endpointFor, messagesOf, rotateSecretForm, startReceiver, type Receiver } from "../../helpers/webhooks";

// Signatures (Standard Webhooks, lib/events/signing.ts) through a secret's rotation: during the
// overlap every message is signed with both secrets, so a receiver that still has only the old
// one verifies; without an overlap, or once it is over, with the new one alone.

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

const signaturesOf = (headers: Record<string, string>) => headers["webhook-signature"].split(" ");

/** Whether `secret` alone verifies what the receiver got, as a receiver holding only it would. */
function verifiesWith(secret: string, event: { body: string; headers: Record<string, string> }): boolean {
  try {
    new Webhook(secret).verify(event.body, event.headers);
    return true;
  } catch {
    return false;
  }
}

async function rotated(session: string, endpointId: string, fields: Record<string, string> = {}): Promise<string> {
  const response = await rotateSecretForm(session, endpointId, fields);
  expect(response.status).toBe(200);
  const { secret } = (await response.json()) as { secret: string };
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  return secret;
}

describe("signing", () => {
  it("signs with the endpoint's secret, shown once at creation, as Standard Webhooks defines", async () => {
    const hooks = await receiver();
    const owner = await person();
    const endpoint = await endpointFor(owner, hooks, ["access_token.created"]);
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    // The database holds it sealed, never as it was shown.
    const row = await (await db()).webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(JSON.stringify(row)).not.toContain(endpoint.secret.slice("whsec_".length));
    await settingsToken(owner, "all");
    await deliverAll();
    const [event] = hooks.events;
    expect(signaturesOf(event.headers)).toHaveLength(1);
    expect(event.headers).toMatchObject({ "content-type": "application/json", "user-agent": "initlink-webhooks", "webhook-id": event.id });
    expect(Number(event.headers["webhook-timestamp"])).toBeCloseTo(Date.now() / 1000, -2);
    expect(verifiesWith(endpoint.secret, event)).toBe(true);
    // Another endpoint's secret does not verify it.
    const other = await endpointFor(owner, await receiver(), ["access_token.created"]);
    expect(verifiesWith(other.secret, event)).toBe(false);
  });

  it("during a rotation's overlap signs with both secrets: a receiver with only the old one verifies, and one with only the new one", async () => {
    const hooks = await receiver();
    const owner = await person();
    const endpoint = await endpointFor(owner, hooks, ["access_token.created"]);
    const old = endpoint.secret;
    const fresh = await rotated(owner.session, endpoint.id);
    expect(fresh).not.toBe(old);
    const prisma = await db();
    const row = await prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    // The default overlap: 24 hours.
    expect(Math.round(((row.previousSecretUntil?.getTime() ?? 0) - Date.now()) / 3_600_000)).toBe(24);
    expect(await prisma.activityEvent.findMany({ where: { userId: owner.userId, kind: "webhook_secret_rotated" } })).toEqual([
      expect.objectContaining({ tokenName: new URL(hooks.url).origin, decidedBy: owner.email, teamId: null }),
    ]);

    // The receiver has not been told of the new secret yet.
    expect(hooks.secrets).toEqual([old]);
    await settingsToken(owner, "all");
    expect(await deliverAll()).toEqual({ delivered: 1, retried: 0, failed: 0 });
    const [event] = hooks.events;
    expect(signaturesOf(event.headers)).toHaveLength(2);
    expect(verifiesWith(old, event)).toBe(true);
    expect(verifiesWith(fresh, event)).toBe(true);

    // Once the overlap is over (moved to the past here), the old secret signs no more.
    await prisma.webhookEndpoint.update({ where: { id: endpoint.id }, data: { previousSecretUntil: new Date(Date.now() - 1000) } });
    hooks.secrets.splice(0, hooks.secrets.length, fresh);
    await settingsToken(owner, "all");
    expect(await deliverAll()).toEqual({ delivered: 1, retried: 0, failed: 0 });
    expect(signaturesOf(hooks.events[1].headers)).toHaveLength(1);
    expect(verifiesWith(fresh, hooks.events[1])).toBe(true);
    expect(verifiesWith(old, hooks.events[1])).toBe(false);
  });

  it("with an overlap of 0 signs with the new secret alone: a receiver with the old one refuses, and verifies once told the new one", async () => {
    const hooks = await receiver();
    const owner = await person();
    const endpoint = await endpointFor(owner, hooks, ["access_token.created"]);
    const fresh = await rotated(owner.session, endpoint.id, { overlap_hours: "0" });
    await settingsToken(owner, "all");
    expect(await deliverAll()).toEqual({ delivered: 0, retried: 1, failed: 0 });
    expect(hooks.rejected).toHaveLength(1);
    expect(hooks.events).toEqual([]);
    const [refused] = await attemptsOf(endpoint.id);
    expect(refused).toMatchObject({ statusCode: 401, error: "answered 401", responseBody: "bad signature" });

    hooks.secrets.push(fresh);
    expect(await deliverAll(ahead(6500))).toEqual({ delivered: 1, retried: 0, failed: 0 });
    const [event] = hooks.events;
    expect(signaturesOf(event.headers)).toHaveLength(1);
    expect(verifiesWith(fresh, event)).toBe(true);
    expect(verifiesWith(endpoint.secret, event)).toBe(false);
    expect((await messagesOf(endpoint.id)).map((message) => [message.id, message.outcome])).toEqual([[event.id, "delivered"]]);
  });

  it("rotates again during an overlap: the secret rotated out signs on, the one before it no more", async () => {
    const hooks = await receiver();
    const owner = await person();
    const endpoint = await endpointFor(owner, hooks, ["access_token.created"]);
    const second = await rotated(owner.session, endpoint.id, { overlap_hours: "1" });
    const third = await rotated(owner.session, endpoint.id, { overlap_hours: "1" });
    hooks.secrets.splice(0, hooks.secrets.length, second);
    await settingsToken(owner, "all");
    expect(await deliverAll()).toEqual({ delivered: 1, retried: 0, failed: 0 });
    const [event] = hooks.events;
    expect(signaturesOf(event.headers)).toHaveLength(2);
    expect(verifiesWith(third, event)).toBe(true);
    expect(verifiesWith(second, event)).toBe(true);
    expect(verifiesWith(endpoint.secret, event)).toBe(false);
  });
});
