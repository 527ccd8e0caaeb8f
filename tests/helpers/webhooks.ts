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

export type ReceivedEvent = { id: string; type: string; timestamp: string; data: Record<string, unknown>; headers: Record<string, string> };

export type Behaviour = { kind: "ok" } | { kind: "status"; status: number } | { kind: "hang" };

export type Receiver = {
  url: string;
  /** Verified events, in arrival order. */
  events: ReceivedEvent[];
  /** Every request, verified or not: the signature's failure, if any. */
  rejected: string[];
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
  let behaviour: Behaviour = { kind: "ok" };
  const hanging = new Set<ServerResponse>();
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const body = await readBody(request);
    const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
    let verified: ReceivedEvent | null = null;
    const failures: string[] = [];
    for (const secret of secrets) {
      try {
        const payload = new Webhook(secret).verify(body, headers) as { type: string; timestamp: string; data: Record<string, unknown> };
        verified = { id: headers["webhook-id"], ...payload, headers };
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
      response.writeHead(behaviour.status, { "content-type": "text/plain" }).end(`failing on purpose ${"x".repeat(2000)}`);
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
