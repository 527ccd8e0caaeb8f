import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { eventBodySchema, testEventBodySchema } from "@/lib/events/event-body-schema";
import { eventReceiver, type InitlinkEvent } from "../../../docs/examples/webhook-receiver";
import { createdInit } from "../../helpers/api";
import { approvalError, person, type Person } from "../../helpers/teams";
import { createEndpointForm, deliverAll, messagesOf, resendForm, rotateSecretForm, testEventForm } from "../../helpers/webhooks";

// docs/events.md's receiver (docs/examples/webhook-receiver.ts, which the guide quotes whole:
// tests/unit/docs/integrating-examples.test.ts), run as written behind a real HTTP server: it
// verifies real signed events from initlink's delivery worker, handles a message sent again once,
// refuses a changed body, another secret and an old timestamp, and follows a secret's rotation.

type Handler = (request: IncomingMessage, response: ServerResponse) => Promise<void>;
type Captured = { headers: Record<string, string>; body: string };

let server: Server;
let url: string;
/** What the server does with a request: the example receiver, or a capture of what initlink sent. */
let receive: Handler;
/** Each answer the server gave: the request's webhook-id and the status. */
const answers: { id: string; status: number }[] = [];

beforeAll(async () => {
  Object.assign(process.env, { OUTBOUND_ALLOW_PRIVATE: "true" });
  server = createServer((request, response) => {
    response.on("finish", () => answers.push({ id: String(request.headers["webhook-id"]), status: response.statusCode }));
    void receive(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/initlink-events`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

afterEach(() => {
  vi.useRealTimers();
});

async function newEndpoint(owner: Person, types: string): Promise<{ id: string; secret: string }> {
  const response = await createEndpointForm(owner.session, { url, description: "docs/events.md's receiver", types });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string; secret: string };
}

/** The example receiver with `secret`, collecting what it handles into `handled`. */
function exampleReceiver(secret: string, handled: InitlinkEvent[]): Handler {
  return eventReceiver(secret, async (event) => {
    handled.push(event);
  });
}

/** The next request initlink sends, as it arrived, answered 204. */
function capture(): Promise<Captured> {
  return new Promise((resolve) => {
    receive = async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      response.writeHead(204).end();
      resolve({ headers: Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)])), body: Buffer.concat(chunks).toString("utf8") });
    };
  });
}

/** Sends a captured request again to the example receiver with `secret`: its answer's status. */
async function replay(secret: string, { headers, body }: Captured, handled: InitlinkEvent[] = []): Promise<number> {
  receive = exampleReceiver(secret, handled);
  const signed = { "webhook-id": headers["webhook-id"], "webhook-timestamp": headers["webhook-timestamp"], "webhook-signature": headers["webhook-signature"] };
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json", ...signed }, body });
  return response.status;
}

/** A test event sent from the endpoint's page, as the receiver got it. */
async function testEvent(owner: Person, endpointId: string): Promise<Captured> {
  const sent = capture();
  expect((await testEventForm(owner.session, endpointId)).status).toBe(303);
  await deliverAll();
  return sent;
}

describe("docs/events.md's receiver", () => {
  it("verifies a real event and handles it once, however often it comes", async () => {
    const owner = await person();
    const endpoint = await newEndpoint(owner, "init.approved");
    const handled: InitlinkEvent[] = [];
    receive = exampleReceiver(endpoint.secret, handled);

    const init = await createdInit({ sender: "@acme/cli", sender_device: "build box" });
    expect(await approvalError(init.id, owner, { project: "new", name: "Receiver docs" })).toBeNull();
    await deliverAll();
    expect(handled).toHaveLength(1);
    const [event] = handled;
    expect(eventBodySchema.parse(event)).toMatchObject({
      type: "init.approved",
      data: { subject_id: init.id, account_id: owner.userId, account_email: owner.email, project: { name: "Receiver docs" }, client: { sender: "@acme/cli", device: "build box" } },
    });
    const [message] = await messagesOf(endpoint.id);
    expect(answers.filter(({ id }) => id === message.id)).toEqual([{ id: message.id, status: 204 }]);

    // Send again: the same webhook-id arrives a second time, and is answered without being handled again.
    expect((await resendForm(owner.session, endpoint.id, message.id)).status).toBe(303);
    await deliverAll();
    await vi.waitFor(() => expect(answers.filter(({ id }) => id === message.id)).toHaveLength(2));
    expect(answers.filter(({ id }) => id === message.id).map(({ status }) => status)).toEqual([204, 204]);
    expect(handled).toHaveLength(1);
  });

  it("refuses a changed body, another endpoint's secret and a timestamp more than 5 minutes old", async () => {
    const owner = await person();
    const endpoint = await newEndpoint(owner, "init.approved");
    const other = await newEndpoint(owner, "init.approved");
    const sent = await testEvent(owner, endpoint.id);
    expect(testEventBodySchema.parse(JSON.parse(sent.body))).toMatchObject({ type: "webhook.test", data: { endpoint_id: endpoint.id } });

    const handled: InitlinkEvent[] = [];
    expect(await replay(endpoint.secret, sent, handled)).toBe(204);
    expect(handled.map(({ type }) => type)).toEqual(["webhook.test"]);
    expect(await replay(endpoint.secret, { ...sent, body: sent.body.replace(endpoint.id, other.id) })).toBe(401);
    expect(await replay(endpoint.secret, { ...sent, body: `${sent.body} ` })).toBe(401);
    expect(await replay(other.secret, sent)).toBe(401);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Number(sent.headers["webhook-timestamp"]) * 1000 + 5 * 60_000 + 1000);
    expect(await replay(endpoint.secret, sent)).toBe(401);
  });

  it("verifies with either secret during a rotation's overlap, and with the new one alone after it", async () => {
    const owner = await person();
    const endpoint = await newEndpoint(owner, "init.approved");
    const rotate = async (overlapHours: string) => {
      const response = await rotateSecretForm(owner.session, endpoint.id, { overlap_hours: overlapHours });
      expect(response.status).toBe(200);
      return ((await response.json()) as { secret: string }).secret;
    };

    const second = await rotate("24");
    const overlapping = await testEvent(owner, endpoint.id);
    expect(overlapping.headers["webhook-signature"].split(" ")).toHaveLength(2);
    expect(await replay(endpoint.secret, overlapping)).toBe(204);
    expect(await replay(second, overlapping)).toBe(204);

    const third = await rotate("0");
    const after = await testEvent(owner, endpoint.id);
    expect(after.headers["webhook-signature"].split(" ")).toHaveLength(1);
    expect(await replay(third, after)).toBe(204);
    expect(await replay(second, after)).toBe(401);
    expect(await replay(endpoint.secret, after)).toBe(401);
  });
});
