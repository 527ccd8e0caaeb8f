import type { IncomingMessage, ServerResponse } from "node:http";
import { Webhook } from "standardwebhooks";

/** An event as initlink sends it: `type`, when it happened, and `data` (docs/events.md). */
export type InitlinkEvent = { type: string; timestamp: string; data: Record<string, unknown> };

/**
 * Your backend's endpoint for initlink's events, as a Node.js request handler. The signature is
 * checked over the body exactly as it arrived, with the endpoint's secret (`whsec_…`); the library
 * also refuses a `webhook-timestamp` more than 5 minutes from this machine's clock. A message may
 * come more than once: `handled` remembers each `webhook-id` done (keep them in your database,
 * under a unique key), so a repeat is answered 204 and not handled again.
 */
export function eventReceiver(secret: string, handle: (event: InitlinkEvent) => Promise<void>, handled = new Set<string>()) {
  const webhook = new Webhook(secret);
  return async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString("utf8");
    const id = String(request.headers["webhook-id"]);
    let event: InitlinkEvent;
    try {
      event = webhook.verify(rawBody, {
        "webhook-id": id,
        "webhook-timestamp": String(request.headers["webhook-timestamp"]),
        "webhook-signature": String(request.headers["webhook-signature"]),
      }) as InitlinkEvent;
    } catch {
      response.writeHead(401).end();
      return;
    }
    try {
      if (!handled.has(id)) {
        await handle(event);
        handled.add(id);
      }
      response.writeHead(204).end();
    } catch {
      // Not handled: initlink tries again later.
      response.writeHead(500).end();
    }
  };
}
