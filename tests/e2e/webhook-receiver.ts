import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

// A platform's webhook receiver on 127.0.0.1 (the end-to-end server sends to private addresses:
// OUTBOUND_ALLOW_PRIVATE, playwright.config.ts). It verifies every request with the Standard
// Webhooks library, as a receiver would, with the secrets it was given from the page; one no
// secret verifies is answered 401 and kept as rejected.

export type VerifiedEvent = { id: string; type: string; data: Record<string, unknown>; signatures: number };

export type Receiver = {
  url: string;
  /** Verified requests, in arrival order. */
  events: VerifiedEvent[];
  /** Requests no secret verified: why. */
  rejected: string[];
  /** Verifies with `secret` alone from now on. */
  trust(secret: string): void;
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

/** A receiver that answers a verified request with `answer` (by default 204, no body). */
export async function startReceiver(answer: { status: number; body: string } = { status: 204, body: "" }): Promise<Receiver> {
  const events: VerifiedEvent[] = [];
  const rejected: string[] = [];
  let secret: string | null = null;
  const server = createServer((request, response) => {
    void readBody(request).then((body) => {
      const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
      try {
        if (secret === null) throw new Error("no secret yet");
        const payload = new Webhook(secret).verify(body, headers) as { type: string; data: Record<string, unknown> };
        events.push({ id: headers["webhook-id"], type: payload.type, data: payload.data, signatures: headers["webhook-signature"].split(" ").length });
      } catch (error) {
        rejected.push(String(error));
        response.writeHead(401, { "content-type": "text/plain" }).end("bad signature");
        return;
      }
      response.writeHead(answer.status, answer.body === "" ? {} : { "content-type": "application/json" }).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/initlink`,
    events,
    rejected,
    trust: (next) => {
      secret = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A URL on 127.0.0.1 where nothing listens: its deliveries fail with the connection refused. */
export async function closedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/hooks/initlink`;
}
