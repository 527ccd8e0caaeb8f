import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { BALANCER, INSTANCE_A, INSTANCE_B } from "../../playwright.multi.config";
import { over } from "../e2e/flow";
import { newEmail, signUp } from "../helpers/journey.mjs";

// Two instances share one outbox: 1,000 events queued through both, delivered by both workers.
// Each instance leases a message with a conditional update before sending it, so no event may
// reach the receiver twice at once, and with a receiver that always answers, none twice at all.

const EVENTS = 1000;

test("two instances deliver a shared queue of 1,000 events, each once and never twice at once", async ({ request }) => {
  test.setTimeout(180_000);
  const secrets: string[] = [];
  const received = new Map<string, number>();
  const inFlight = new Map<string, number>();
  let concurrentTwice = 0;
  let badSignatures = 0;
  const receiver = createServer((incoming, answer) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const headers = Object.fromEntries(Object.entries(incoming.headers).map(([name, value]) => [name, String(value)]));
      const id = headers["webhook-id"];
      const now = (inFlight.get(id) ?? 0) + 1;
      inFlight.set(id, now);
      if (now > 1) concurrentTwice += 1;
      try {
        new Webhook(secrets[0]).verify(Buffer.concat(chunks).toString("utf8"), headers);
      } catch {
        badSignatures += 1;
      }
      // A short answer time keeps several attempts in flight on both instances.
      setTimeout(() => {
        inFlight.set(id, (inFlight.get(id) ?? 1) - 1);
        received.set(id, (received.get(id) ?? 0) + 1);
        answer.writeHead(204).end();
      }, 10);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  try {
    const port = (receiver.address() as AddressInfo).port;
    const { cookie } = await signUp(over(request, INSTANCE_A), { site: BALANCER, email: newEmail("multi-webhooks") });
    const form = (instance: string, path: string, fields: Record<string, string> = {}) =>
      request.post(`${instance}${path}`, { data: new URLSearchParams(fields).toString(), headers: { "content-type": "application/x-www-form-urlencoded", origin: BALANCER, cookie }, maxRedirects: 0 });
    const created = await form(INSTANCE_A, "/webhooks/create", { url: `http://127.0.0.1:${port}/hooks`, description: "shared queue", types: "init.approved" });
    expect(created.status()).toBe(201);
    const endpoint = (await created.json()) as { id: string; secret: string };
    secrets.push(endpoint.secret);

    // Queued through both instances while the endpoint is disabled, then released at once.
    expect((await form(INSTANCE_B, `/webhooks/${endpoint.id}/disable`)).status()).toBe(303);
    for (let batch = 0; batch < EVENTS / 20; batch++) {
      await Promise.all(Array.from({ length: 20 }, (_unused, index) => form(index % 2 === 0 ? INSTANCE_A : INSTANCE_B, `/webhooks/${endpoint.id}/test`)));
    }
    expect((await form(INSTANCE_A, `/webhooks/${endpoint.id}/enable`)).status()).toBe(303);

    await expect.poll(() => received.size, { timeout: 120_000, intervals: [250] }).toBe(EVENTS);
    expect(concurrentTwice).toBe(0);
    expect(badSignatures).toBe(0);
    expect([...received.values()].filter((count) => count > 1)).toEqual([]);
  } finally {
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
});
