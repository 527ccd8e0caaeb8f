// @ts-check
// The crash test's webhook round: 1,000 events queued for one endpoint, the server SIGKILLed in
// the middle of delivering them, restarted on the same database. Every event must reach the
// receiver (which verifies each signature with the standardwebhooks library); an event may
// arrive twice only if the kill cut its attempt short (its answer lost), so at most as many
// duplicates as attempts were in flight.
import { createServer } from "node:http";
import { Webhook } from "standardwebhooks";
import { newEmail, signUp } from "../helpers/journey.mjs";
import { client, siteOf, startServer, stopServer, waitUntilUp } from "./load-tools.mjs";

const EVENTS = 1000;
/** Each answer takes this long, so that a kill lands among attempts in flight. */
const ANSWER_DELAY_MS = 25;
const KILL_AFTER_RECEIVED = 300;
/** A lease left by the killed process runs out within 30 s (lib/events/delivery.ts); then the rest goes. */
const DEADLINE_MS = 90_000;

/**
 * @param {number} port
 * @param {Record<string, string>} env the crash test's server settings (its file database)
 */
export async function webhookCrashRound(port, env) {
  const serverEnv = { ...env, OUTBOUND_ALLOW_PRIVATE: "true" };
  /** @type {Map<string, number>} */
  const received = new Map();
  let rejected = 0;
  /** @type {string[]} */
  const secrets = [];
  /** @type {() => void} */
  let onReceived = () => {};
  const receiver = createServer((request, response) => {
    /** @type {Buffer[]} */
    const chunks = [];
    request.on("data", (chunk) => chunks.push(chunk));
    request.on("end", () => {
      const headers = /** @type {Record<string, string>} */ (Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)])));
      try {
        new Webhook(secrets[0]).verify(Buffer.concat(chunks).toString("utf8"), headers);
      } catch {
        rejected += 1;
        response.writeHead(401).end();
        return;
      }
      setTimeout(() => {
        const id = headers["webhook-id"];
        received.set(id, (received.get(id) ?? 0) + 1);
        response.writeHead(204).end();
        onReceived();
      }, ANSWER_DELAY_MS);
    });
  });
  await new Promise((resolve) => receiver.listen(0, "127.0.0.1", () => resolve(undefined)));
  const address = receiver.address();
  if (address === null || typeof address === "string") throw new Error("the receiver has no port");

  const site = siteOf(port);
  const { send, close } = client(port);
  let server = startServer(port, serverEnv);
  await waitUntilUp(send);
  const { cookie } = await signUp(send, { site, email: newEmail("webhook-crash") });
  const form = (/** @type {string} */ path, /** @type {Record<string, string>} */ fields = {}) =>
    send("POST", path, new URLSearchParams(fields).toString(), { "content-type": "application/x-www-form-urlencoded", origin: site, cookie });
  const created = await form("/webhooks/create", { url: `http://127.0.0.1:${address.port}/hooks`, description: "crash receiver", types: "init.approved" });
  if (created.status !== 201) throw new Error(`adding the endpoint answered ${created.status}: ${created.text}`);
  const endpoint = JSON.parse(created.text);
  secrets.push(endpoint.secret);

  // Queued while disabled, then released at once: the kill lands among deliveries, not among inserts.
  await form(`/webhooks/${endpoint.id}/disable`);
  for (let batch = 0; batch < EVENTS / 20; batch++) {
    await Promise.all(Array.from({ length: 20 }, () => form(`/webhooks/${endpoint.id}/test`)));
  }
  const killed = new Promise((resolve) => {
    onReceived = () => {
      if (received.size >= KILL_AFTER_RECEIVED) resolve(undefined);
    };
  });
  await form(`/webhooks/${endpoint.id}/enable`);
  await killed;
  await stopServer(server, "SIGKILL");
  const atKill = received.size;
  close();

  const started = Date.now();
  const after = client(port);
  server = startServer(port, serverEnv);
  await waitUntilUp(after.send);
  while (received.size < EVENTS && Date.now() - started < DEADLINE_MS) await new Promise((resolve) => setTimeout(resolve, 200));
  const allInMs = Date.now() - started;
  await stopServer(server, "SIGTERM");
  after.close();
  receiver.closeAllConnections();
  receiver.close();

  const duplicates = [...received.values()].reduce((sum, count) => sum + count - 1, 0);
  const lost = EVENTS - received.size;
  console.log(
    `webhooks: ${EVENTS} events queued; killed after ${atKill} arrived; after the restart all arrived within ${(allInMs / 1000).toFixed(1)} s; lost ${lost}, duplicates ${duplicates} (attempts cut short by the kill), bad signatures ${rejected}`,
  );
  // Both workers lease at most 50 each at once: no more attempts can have been cut short.
  return { lost, failed: lost > 0 || rejected > 0 || duplicates > 100 };
}
