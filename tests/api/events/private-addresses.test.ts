import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "@/lib/config";
import { db } from "@/lib/database/db";
import { newEndpointSecret, sealEndpointSecret } from "@/lib/events/signing";
import { randomId } from "@/lib/secrets";
import { changedTables, databaseFingerprint } from "../../helpers/hostile";
import { person, settingsToken } from "../../helpers/teams";
import { attemptsOf, createEndpointForm, deliverAll, messagesOf, startReceiver, type Receiver } from "../../helpers/webhooks";

// Without OUTBOUND_ALLOW_PRIVATE (production's default), the service sends to public https
// addresses only (lib/outbound/outbound-request.ts): an endpoint at a private, loopback,
// link-local or special-purpose address is refused when it is added, and a name that resolves
// to one by the time of a delivery is refused then, before any connection. The other files of
// this folder allow private addresses, to reach their receiver on loopback.

let hooks: Receiver;
beforeAll(async () => {
  Object.assign(process.env, { OUTBOUND_ALLOW_PRIVATE: "false", WEBHOOK_RETRY_SCHEDULE: "5s,5s,5s" });
  expect(config().outbound).toEqual({ allowPrivate: false, allowLoopback: false });
  hooks = await startReceiver();
});
afterAll(async () => {
  await hooks.close();
});

const PORT = () => new URL(hooks.url).port;

describe("an endpoint's address, without OUTBOUND_ALLOW_PRIVATE", () => {
  it.each([
    ["https://127.0.0.1/hooks", "127.0.0.1"],
    ["https://10.0.0.1/hooks", "10.0.0.1"],
    ["https://[::1]/hooks", "::1"],
    ["https://[::ffff:127.0.0.1]/hooks", "::ffff:7f00:1"],
    ["https://[::127.0.0.1]/hooks", "::7f00:1"],
    ["https://169.254.169.254/latest/meta-data", "169.254.169.254"],
    ["https://localhost/hooks", "127.0.0.1"],
    ["https://192.168.1.1/hooks", "192.168.1.1"],
    ["https://0x7f000001/hooks", "127.0.0.1"],
    ["https://2130706433/hooks", "127.0.0.1"],
    ["https://0.0.0.0/hooks", "0.0.0.0"],
    ["https://100.64.0.1/hooks", "100.64.0.1"],
    ["https://[fd00:ec2::254]/hooks", "fd00:ec2::254"],
    ["https://[64:ff9b::a00:1]/hooks", "64:ff9b::a00:1"],
    ["https://[fe80::1]/hooks", "fe80::1"],
    ["https://198.51.100.7/hooks", "198.51.100.7"],
  ])("refuses %s with 400 webhook_address_refused, and writes nothing", async (url, address) => {
    const owner = await person();
    const before = await databaseFingerprint();
    const response = await createEndpointForm(owner.session, { url, types: "init.approved" });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { code: string; error: string };
    expect(body.code).toBe("webhook_address_refused");
    expect(body.error).toContain("resolves to a private or special-purpose address");
    // The address a name resolves to is not told: the message would map the service's network.
    if (new URL(url).hostname.replace(/^\[|\]$/g, "") !== address) expect(body.error).not.toContain(address);
    expect(changedTables(before, await databaseFingerprint())).toEqual([]);
  });

  it.each([
    ["http://127.0.0.1/hooks", "must be an https:// URL"],
    ["http://hooks.example.com/hooks", "must be an https:// URL"],
    ["ftp://hooks.example.com/", "must be an https:// URL"],
    ["https://user:secret@hooks.example.com/", "must not carry a user name or password"],
    ["https://hooks.example.com/#fragment", "must not have a #fragment"],
    ["hooks.example.com/hooks", "must be an absolute URL"],
  ])("refuses %s with 400 invalid_request on the url field, and writes nothing", async (url, message) => {
    const owner = await person();
    const before = await databaseFingerprint();
    const response = await createEndpointForm(owner.session, { url, types: "init.approved" });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { code: string; fields: { field: string; message: string }[] };
    expect(body.code).toBe("invalid_request");
    expect(body.fields).toEqual([{ field: "url", message: expect.stringContaining(message) }]);
    expect(changedTables(before, await databaseFingerprint())).toEqual([]);
  });

  it("takes a public address, and a name that does not resolve yet (its deliveries will say so)", async () => {
    const owner = await person();
    for (const url of ["https://8.8.8.8/hooks", "https://[2606:4700:4700::1111]/hooks", "https://hooks.example.invalid/hooks"]) {
      const response = await createEndpointForm(owner.session, { url, types: "init.approved" });
      expect(response.status).toBe(201);
      expect(await response.json()).toMatchObject({ url });
    }
  });

  it("refuses at delivery a stored endpoint whose host now resolves to a private address: no request reaches the receiver", async () => {
    const owner = await person();
    const prisma = await db();
    // Stored as a name that was public when it was added, as it would be if its DNS changed since:
    // localhost, which resolves to loopback, where the receiver listens.
    const endpoints = [`https://localhost:${PORT()}/hooks`, `http://localhost:${PORT()}/hooks`, hooks.url].map((url) => ({ id: randomId(), url }));
    for (const { id, url } of endpoints) {
      await prisma.webhookEndpoint.create({
        data: { id, userId: owner.userId, url, description: "", sealedSecret: sealEndpointSecret(config().masterKey, id, newEndpointSecret()), createdAt: new Date(), subscriptions: { create: { kind: "access_token_created" } } },
      });
    }
    await settingsToken(owner, "all");
    expect(await deliverAll()).toEqual({ delivered: 0, retried: 3, failed: 0 });
    for (const { id, url } of endpoints) {
      const host = new URL(url).hostname;
      const [attempt] = await attemptsOf(id);
      expect(attempt).toMatchObject({ statusCode: null, responseBody: null });
      // A plain http URL, stored while OUTBOUND_ALLOW_PRIVATE allowed it, is refused before its host is even resolved.
      expect(attempt.error).toBe(url.startsWith("http:") ? "must be an https:// URL" : `${host} resolves to a private or special-purpose address, which initlink does not send to`);
      expect(await messagesOf(id)).toEqual([expect.objectContaining({ outcome: null, failures: 1 })]);
    }
    expect(hooks.seen).toEqual([]);
  });
});
