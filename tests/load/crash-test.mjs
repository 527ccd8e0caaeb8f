// @ts-check
// `npm run test:crash`: durability under a crash. Starts the production server on a file
// database, creates inits and approves them at full speed, kills the server with SIGKILL in the
// middle of it, restarts it on the same file, and checks that every init answered 201 is there
// with the same fields and every approval answered as done is still done. Three rounds by
// default (CRASH_ROUNDS); prints what was acknowledged and what was lost, which must be 0. Then
// a round of webhook deliveries killed midway (tests/load/webhook-crash.mjs): none may be lost.
import { rmSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { approvedIntoNewProject, newEmail, signUp } from "../helpers/journey.mjs";
import { client, root, siteOf, startServer, stopServer, waitUntilUp } from "./load-tools.mjs";
import { webhookCrashRound } from "./webhook-crash.mjs";

const PORT = Number(process.env.CRASH_PORT || 3210);
const ROUNDS = Number(process.env.CRASH_ROUNDS || 3);
const WORKERS = 16;
const database = path.join(root, ".cache", "crash", "crash.db");
const MASTER_KEY = Buffer.alloc(32, 7).toString("base64");
const env = {
  DATABASE_URL: `file:${database}`,
  MASTER_KEY,
  CREATE_INIT_PER_MINUTE: "1000000",
  SIGN_IN_PER_ADDRESS_PER_MINUTE: "1000000",
  NEW_PROJECTS_PER_ACCOUNT_PER_HOUR: "1000000",
  NEW_PROJECTS_PER_ADDRESS_PER_HOUR: "1000000",
  PROJECTS_PER_ACCOUNT: "1000000",
};

/** @typedef {{ id: string, user_code: string, expires_at: number, timestamp: number }} Acknowledged */

async function round(/** @type {number} */ number) {
  const { send, close } = client(PORT);
  let server = startServer(PORT, env);
  await waitUntilUp(send);
  const { cookie } = await signUp(send, { site: siteOf(PORT), email: newEmail(`crash-${number}`) });
  /** @type {Acknowledged[]} */
  const acknowledged = [];
  /** @type {string[]} */
  const approvals = [];
  let killed = false;
  const killAfterMs = 1500 + Math.floor(Math.random() * 1500);
  const load = Array.from({ length: WORKERS }, async (_unused, worker) => {
    while (!killed) {
      try {
        const created = await send("POST", "/api/init", JSON.stringify({ sender: `@crash/worker-${worker}`, sender_device: `round ${number}` }));
        if (created.status !== 201) continue;
        const init = JSON.parse(created.text);
        acknowledged.push(init);
        if (worker % 2 === 0 && (await approvedIntoNewProject(send, siteOf(PORT), cookie, init.id, "Load"))) approvals.push(init.id);
      } catch {
        // The server is gone: only answers received before count.
      }
    }
  });
  await new Promise((resolve) => setTimeout(resolve, killAfterMs));
  await stopServer(server, "SIGKILL");
  killed = true;
  await Promise.all(load);
  close();

  // Restart on the same file and read back everything that was acknowledged.
  const after = client(PORT);
  server = startServer(PORT, env);
  await waitUntilUp(after.send);
  const file = new Database(database, { readonly: true });
  const read = file.prepare('SELECT "userCode", "sender", "senderDevice", "expiresAt", "createdAt", "status" FROM "Init" WHERE "id" = ?');
  let lostInits = 0;
  let lostApprovals = 0;
  const approvedIds = new Set(approvals);
  for (const init of acknowledged) {
    // Prisma keeps SQLite DateTimes as ISO 8601 text.
    const row = /** @type {{ userCode: string, sender: string, senderDevice: string, expiresAt: string, createdAt: string, status: string } | undefined} */ (read.get(init.id));
    const same =
      row !== undefined &&
      row.userCode === init.user_code &&
      Date.parse(row.expiresAt) === init.expires_at &&
      Date.parse(row.createdAt) === init.timestamp &&
      row.senderDevice === `round ${number}`;
    if (!same) lostInits += 1;
    if (approvedIds.has(init.id) && row?.status !== "done") lostApprovals += 1;
  }
  file.close();
  // The restarted server serves them too.
  const sample = acknowledged.at(-1);
  if (sample !== undefined) {
    const status = await after.send("GET", `/api/init/${sample.id}`);
    if (status.status !== 200) lostInits += 1;
  }
  await stopServer(server, "SIGTERM");
  after.close();
  console.log(`round ${number}: killed after ${killAfterMs} ms; inits acknowledged ${acknowledged.length}, lost ${lostInits}; approvals acknowledged ${approvals.length}, lost ${lostApprovals}`);
  return { acknowledged: acknowledged.length + approvals.length, lost: lostInits + lostApprovals };
}

// A stuck round fails loudly instead of leaving the process to drain and exit without a word.
const watchdog = setTimeout(() => {
  console.error("crash test: stuck for 7 minutes");
  process.exit(1);
}, 420_000);
rmSync(path.dirname(database), { recursive: true, force: true });
let acknowledged = 0;
let lost = 0;
for (let number = 1; number <= ROUNDS; number++) {
  const result = await round(number);
  acknowledged += result.acknowledged;
  lost += result.lost;
  await new Promise((resolve) => setTimeout(resolve, 500));
}
const webhooks = await webhookCrashRound(PORT, env);
clearTimeout(watchdog);
console.log(`\ncrash test: ${ROUNDS} rounds, requests acknowledged ${acknowledged}, lost ${lost}; webhook events lost ${webhooks.lost}`);
if (lost > 0 || acknowledged === 0 || webhooks.failed) process.exit(1);
