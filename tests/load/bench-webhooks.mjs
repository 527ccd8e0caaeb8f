// @ts-check
// Events (docs/events.md): what writing an approval's event costs the approval, and how fast the
// delivery worker sends. Starts the production build on a scratch database with a local receiver
// that verifies every signature (standardwebhooks). First, approvals into an existing project
// at a fixed concurrency, without an endpoint and then with one receiving init.approved (its
// deliveries running meanwhile, as they would): the time per approval of each, as a ratio. Then
// EVENTS events queued while the endpoint is disabled and released at once: events delivered a
// second. Last, with the server stopped, the trigger alone on the same file: activity events
// inserted in one transaction with the endpoint enabled (each one also queues its message) and
// disabled (none does), in µs an event. Measures, never asserts. `node tests/load/bench-webhooks.mjs`, or benchWebhooks() from bench.mjs.
import { createServer } from "node:http";
import { rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { Webhook } from "standardwebhooks";
import { approvedIntoNewProject, createInit, newEmail, signUp } from "../helpers/journey.mjs";
import { client, root, siteOf, startServer, stopServer, waitUntilUp } from "./load-tools.mjs";

const PORT = Number(process.env.BENCH_WEBHOOKS_PORT || 3450);
const APPROVALS = 300;
const CONCURRENCY = 8;
const EVENTS = 2000;
const TRIGGER_ROWS = 5000;
const database = path.join(root, ".cache", "bench-webhooks", "bench.db");

/** @returns {Promise<[string, string][]>} */
export async function benchWebhooks() {
  rmSync(path.dirname(database), { recursive: true, force: true });
  let received = 0;
  /** @type {string[]} */
  const secrets = [];
  const receiver = createServer((request, response) => {
    /** @type {Buffer[]} */
    const chunks = [];
    request.on("data", (chunk) => chunks.push(chunk));
    request.on("end", () => {
      const headers = /** @type {Record<string, string>} */ (Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)])));
      new Webhook(secrets[0]).verify(Buffer.concat(chunks).toString("utf8"), headers);
      received += 1;
      response.writeHead(204).end();
    });
  });
  await new Promise((resolve) => receiver.listen(0, "127.0.0.1", () => resolve(undefined)));
  const address = receiver.address();
  if (address === null || typeof address === "string") throw new Error("the receiver has no port");
  const site = siteOf(PORT);
  const server = startServer(PORT, {
    DATABASE_URL: `file:${database}`,
    OUTBOUND_ALLOW_PRIVATE: "true",
    CREATE_INIT_PER_MINUTE: "1000000",
    SIGN_IN_PER_ADDRESS_PER_MINUTE: "1000000",
  });
  const { send, close } = client(PORT);
  try {
    await waitUntilUp(send);
    const { cookie } = await signUp(send, { site, email: newEmail("bench-webhooks") });
    const form = (/** @type {string} */ path, /** @type {Record<string, string>} */ fields = {}) =>
      send("POST", path, new URLSearchParams(fields).toString(), { "content-type": "application/x-www-form-urlencoded", origin: site, cookie });
    const first = await createInit(send);
    if (!(await approvedIntoNewProject(send, site, cookie, first.id, "Bench"))) throw new Error("the first approval failed");

    /** Approves APPROVALS inits into the project, CONCURRENCY at once: ms per approval. */
    const approvals = async () => {
      /** @type {{ id: string }[]} */
      const inits = [];
      for (let i = 0; i < APPROVALS; i++) inits.push(await createInit(send, { sender: "@bench/cli" }));
      const started = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < inits.length) {
            const init = inits[next++];
            const answer = await form(`/init/${init.id}/approve`, { project: first.id, code_confirmed: "yes" });
            if (answer.status !== 303 || answer.headers.location !== `${site}/init/${init.id}`) throw new Error(`an approval failed: ${answer.status} ${answer.headers.location}`);
          }
        }),
      );
      return (performance.now() - started) / APPROVALS;
    };
    await approvals();
    const without = await approvals();
    const created = await form("/webhooks/create", { url: `http://127.0.0.1:${address.port}/hooks`, description: "bench receiver", types: "init.approved" });
    if (created.status !== 201) throw new Error(`adding the endpoint answered ${created.status}: ${created.text}`);
    const endpoint = JSON.parse(created.text);
    secrets.push(endpoint.secret);
    const withEndpoint = await approvals();

    await form(`/webhooks/${endpoint.id}/disable`);
    for (let batch = 0; batch < EVENTS / 20; batch++) await Promise.all(Array.from({ length: 20 }, () => form(`/webhooks/${endpoint.id}/test`)));
    const target = received + EVENTS;
    const started = performance.now();
    await form(`/webhooks/${endpoint.id}/enable`);
    while (received < target) await new Promise((resolve) => setTimeout(resolve, 20));
    const perSecond = EVENTS / ((performance.now() - started) / 1000);
    await stopServer(server, "SIGTERM");
    const trigger = triggerCost(endpoint.id);
    return [
      [`approval with an endpoint receiving init.approved ÷ without (${CONCURRENCY} at once)`, (withEndpoint / without).toFixed(2)],
      ["time per approval without an endpoint, with one", `${without.toFixed(1)} ms, ${withEndpoint.toFixed(1)} ms`],
      [`webhook deliveries a second, ${EVENTS} queued, local receiver`, perSecond.toFixed(0)],
      ["an activity event's insert, with its message queued ÷ with none", (trigger.queued / trigger.none).toFixed(2)],
      ["an activity event's insert, with its message queued, with none", `${trigger.queued.toFixed(1)} µs, ${trigger.none.toFixed(1)} µs`],
    ];
  } finally {
    close();
    await stopServer(server, "SIGTERM");
    receiver.closeAllConnections();
    receiver.close();
  }
}

/**
 * µs an activity event takes to insert, in one transaction of TRIGGER_ROWS (no fsync each: the
 * trigger's own work), with the endpoint enabled and disabled; each run rolled back.
 * @param {string} endpointId
 */
function triggerCost(endpointId) {
  const file = new Database(database);
  const user = /** @type {{ id: string }} */ (file.prepare('SELECT "id" FROM "User" LIMIT 1').get());
  const project = /** @type {{ id: string }} */ (file.prepare('SELECT "id" FROM "Project" LIMIT 1').get());
  const insert = file.prepare(
    `INSERT INTO "ActivityEvent" ("id", "userId", "kind", "subjectId", "occurredAt", "projectId", "projectName", "sender") VALUES (?, ?, 'init_approved', ?, '2026-11-28T00:00:00.000+00:00', ?, 'Bench', '@bench/cli')`,
  );
  const run = (/** @type {string | null} */ disabledAt) => {
    file.prepare('UPDATE "WebhookEndpoint" SET "disabledAt" = ? WHERE "id" = ?').run(disabledAt, endpointId);
    file.exec("BEGIN");
    const started = performance.now();
    for (let i = 0; i < TRIGGER_ROWS; i++) insert.run(`bench-${i}`, user.id, `subject-${i}`, project.id);
    const us = ((performance.now() - started) * 1000) / TRIGGER_ROWS;
    file.exec("ROLLBACK");
    return us;
  };
  run(null);
  const queued = run(null);
  const none = run("2026-11-28T00:00:00.000+00:00");
  file.close();
  return { queued, none };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const [figure, value] of await benchWebhooks()) console.log(`${figure.padEnd(72)} ${value}`);
}
