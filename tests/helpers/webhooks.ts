import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { config } from "@/lib/config";
import { deliverDueWebhooks } from "@/lib/events/delivery";
import { db } from "@/lib/database/db";
import { postForm, type Person } from "./teams";

// Webhook endpoints through their real route handlers (lib/api/operations/webhooks.ts), and a
// real receiver over HTTP that verifies every signature with the standardwebhooks library, as a
// platform's backend would. The receiver's behaviour can be switched: answer 2xx, answer an
// error status, hang, or be down (its port closed: connection refused).

export type ReceivedEvent = { id: string; type: string; timestamp: string; data: Record<string, unknown>; headers: Record<string, string>; body: string };

/** `body`: what an error status answers with (by default a long text). */
export type Behaviour = { kind: "ok" } | { kind: "status"; status: number; body?: string } | { kind: "hang" };

export type Receiver = {
  url: string;
  /** Verified events, in arrival order. */
  events: ReceivedEvent[];
  /** Every request, verified or not: the signature's failure, if any. */
  rejected: string[];
  /** The webhook-id of every request that reached the receiver, whatever it answered (or did not). */
  seen: string[];
  /** Resolves once `count` requests have reached the receiver (answered or not). */
  reached(count: number): Promise<void>;
  /** The secrets this receiver verifies with: any one of them verifying is enough (a rotation's overlap). */
  secrets: string[];
  behave(behaviour: Behaviour): void;
  /** Stops listening (connection refused) or starts again on the same port. */
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
};

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

export async function startReceiver(path = "/hooks"): Promise<Receiver> {
  const events: ReceivedEvent[] = [];
  const rejected: string[] = [];
  const secrets: string[] = [];
  const seen: string[] = [];
  const waiting: { count: number; resolve: () => void }[] = [];
  let behaviour: Behaviour = { kind: "ok" };
  const hanging = new Set<ServerResponse>();
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const body = await readBody(request);
    const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
    seen.push(headers["webhook-id"] ?? "");
    for (const waiter of waiting.filter((entry) => seen.length >= entry.count)) {
      waiting.splice(waiting.indexOf(waiter), 1);
      waiter.resolve();
    }
    let verified: ReceivedEvent | null = null;
    const failures: string[] = [];
    for (const secret of secrets) {
      try {
        const payload = new Webhook(secret).verify(body, headers) as { type: string; timestamp: string; data: Record<string, unknown> };
        verified = { id: headers["webhook-id"], ...payload, headers, body };
        break;
      } catch (error) {
        failures.push(String(error));
      }
    }
    if (behaviour.kind === "hang") {
      hanging.add(response);
      return;
    }
    if (verified === null) {
      rejected.push(failures.join("; ") || "no secret");
      response.writeHead(401).end("bad signature");
      return;
    }
    if (behaviour.kind === "status") {
      response.writeHead(behaviour.status, { "content-type": "text/plain" }).end(behaviour.body ?? `failing on purpose ${"x".repeat(2000)}`);
      return;
    }
    events.push(verified);
    response.writeHead(204).end();
  };
  let server: Server = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((request, response) => void handle(request, response));
      server.listen(port, "127.0.0.1", resolve);
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const response of hanging) response.destroy();
      hanging.clear();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return {
    url: `http://127.0.0.1:${port}${path}`,
    events,
    rejected,
    seen,
    reached: (count) => (seen.length >= count ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ count, resolve }))),
    secrets,
    behave: (next) => {
      behaviour = next;
    },
    down: stop,
    up: listen,
    close: stop,
  };
}

const at = (id: string) => encodeURIComponent(id);

export const createEndpointForm = (session: string, fields: Record<string, string>) => postForm("/webhooks/create", session, fields);
export const rotateSecretForm = (session: string, id: string, fields: Record<string, string> = {}) => postForm(`/webhooks/${at(id)}/rotate`, session, fields);
export const disableEndpointForm = (session: string, id: string) => postForm(`/webhooks/${at(id)}/disable`, session);
export const enableEndpointForm = (session: string, id: string) => postForm(`/webhooks/${at(id)}/enable`, session);
export const deleteEndpointForm = (session: string, id: string) => postForm(`/webhooks/${at(id)}/delete`, session);
export const testEventForm = (session: string, id: string) => postForm(`/webhooks/${at(id)}/test`, session);
export const resendForm = (session: string, id: string, messageId: string) => postForm(`/webhooks/${at(id)}/deliveries/${at(messageId)}/resend`, session);

/** `who` adds an endpoint for `receiver` (their own, or `team`'s) receiving `types`; the receiver learns its secret. */
export async function endpointFor(who: Person, receiver: Receiver, types: string[], team?: string): Promise<{ id: string; secret: string }> {
  const response = await createEndpointForm(who.session, { url: receiver.url, description: "test receiver", types: types.join(" "), ...(team === undefined ? {} : { team }) });
  if (response.status !== 201) throw new Error(`adding the endpoint answered ${response.status}: ${await response.text()}`);
  const answer = (await response.json()) as { id: string; secret: string };
  receiver.secrets.push(answer.secret);
  return answer;
}

/** A clock `ms` ahead of the real one, for deliverAll: retries due by then are sent without waiting for them. */
export const ahead = (ms: number) => () => new Date(Date.now() + ms);

/** One delivery pass, as the worker makes it at `now` (later than the real time to find retries due). */
export const deliverOnce = (now?: Date) => deliverDueWebhooks(config(), now);

/** Runs delivery passes until nothing is due now (retries scheduled later stay); the passes' results. */
export async function deliverAll(now?: () => Date) {
  const totals = { delivered: 0, retried: 0, failed: 0 };
  for (;;) {
    const result = await deliverDueWebhooks(config(), now?.());
    totals.delivered += result.delivered;
    totals.retried += result.retried;
    totals.failed += result.failed;
    if (result.delivered + result.retried + result.failed === 0) return totals;
  }
}

/** The messages queued for an endpoint, oldest first. */
export async function messagesOf(endpointId: string) {
  return (await db()).webhookMessage.findMany({ where: { endpointId }, orderBy: { createdAt: "asc" } });
}

/**
 * Waits until no message of the endpoint is held by a worker: a pass a form started in the
 * background (Send again, Send a test event) has recorded what became of what it sent. Call it
 * once the receiver has been reached, so that the pass has taken its messages. Nothing signals
 * the end of a pass the form started, so the database is asked every 10 ms.
 */
export async function settled(endpointId: string): Promise<void> {
  const prisma = await db();
  for (let tries = 0; tries < 500; tries++) {
    if ((await prisma.webhookMessage.count({ where: { endpointId, claimedUntil: { not: null } } })) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`a message of ${endpointId} is still held after 5 s`);
}

/** The delivery log of an endpoint, oldest first. */
export async function attemptsOf(endpointId: string) {
  return (await db()).webhookAttempt.findMany({ where: { endpointId }, orderBy: [{ startedAt: "asc" }, { attempt: "asc" }] });
}
