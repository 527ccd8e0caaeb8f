// @ts-check
// `npm run test:workers`: the multi-process server (WEB_CONCURRENCY=2) against its rules.
// 0. Four workers opening a new database at the same moment all serve.
// 1. Each worker runs with a heap of WORKER_HEAP_MB. Both workers write at once (Create Init,
//    polls, approvals) and no answer is a 5xx: SQLite's
//    busy timeout serves both processes.
// 2. An approval on one worker ends the requests held with `Prefer: wait` on every worker (the
//    primary relays the change notice), long before their wait runs out.
// 3. A worker killed with SIGKILL is replaced by a new one, and the service answers all along.
// 4. SIGTERM stops the primary and every worker, exit code 0; requests held on an init are
//    answered with its status as it is, and its event streams end, not cut.
// 5. The primary killed with SIGKILL takes its workers with it: none is left holding the port.
// 6. WEB_CONCURRENCY=1 is one process that serves.
// 7. A process that cannot open its database at start exits with the reason.
// Prints each check; exits non-zero on the first failure.
import { spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { approvedIntoNewProject, newEmail, signUp } from "../helpers/journey.mjs";
import { client, processTree, root, siteOf, startServer, stopServer, waitUntilUp } from "./load-tools.mjs";

const PORT = Number(process.env.WORKERS_PORT || 3230);
const database = path.join(root, ".cache", "workers", "workers.db");
// One master key for every start on the one database.
const env = { MASTER_KEY: Buffer.alloc(32, 9).toString("base64"), DATABASE_URL: `file:${database}`, CREATE_INIT_PER_MINUTE: "1000000", SIGN_IN_PER_ADDRESS_PER_MINUTE: "1000000", NEW_PROJECTS_PER_ACCOUNT_PER_HOUR: "1000000", NEW_PROJECTS_PER_ADDRESS_PER_HOUR: "1000000", PROJECTS_PER_ACCOUNT: "1000000", INIT_INTERVAL_MS: "100" };
const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** @param {boolean} condition @param {string} message */
function check(condition, message) {
  if (!condition) {
    console.error(`workers test: FAILED: ${message}`);
    process.exit(1);
  }
  console.log(`ok - ${message}`);
}

/** Whether a process runs (a zombie, exited but not yet reaped, does not). @param {number} pid */
function alive(pid) {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

/**
 * Waits up to 30 s for every one of `pids` to have exited: a worker busy filling its key reserve
 * on a loaded machine takes seconds to see its IPC channel close. @param {number[]} pids
 */
async function allExited(pids) {
  for (let attempt = 0; attempt < 120 && pids.some(alive); attempt++) await sleep(250);
  return !pids.some(alive);
}

/** The primary's workers, once there are `count`. @param {number} primary @param {number} count */
async function workersOf(primary, count) {
  for (let attempt = 0; attempt < 240; attempt++) {
    const workers = processTree(primary).slice(1);
    if (workers.length === count) return workers;
    await sleep(250);
  }
  throw new Error(`the primary never had ${count} workers`);
}

/**
 * Requests from `loops` loops until `until()` says stop; counts answers by status and failed
 * requests, and notes when the last failed one was sent (when its failure is noticed depends on
 * how busy this process is, so that is no measure of when the service failed it).
 * @param {import("./load-tools.mjs").Send} send @param {number} loops @param {() => boolean} until
 * @param {(send: import("./load-tools.mjs").Send, loop: number) => Promise<number[]>} step the statuses of one step
 */
async function underLoad(send, loops, until, step) {
  /** @type {Map<number, number>} */
  const statuses = new Map();
  let failed = 0;
  let lastFailedSentAt = -Infinity;
  await Promise.all(
    Array.from({ length: loops }, async (_unused, loop) => {
      while (!until()) {
        const sentAt = performance.now();
        try {
          for (const status of await step(send, loop)) statuses.set(status, (statuses.get(status) ?? 0) + 1);
        } catch {
          failed += 1;
          lastFailedSentAt = Math.max(lastFailedSentAt, sentAt);
        }
      }
    }),
  );
  return { statuses, failed, lastFailedSentAt };
}

const watchdog = setTimeout(() => {
  console.error("workers test: stuck for 4 minutes");
  process.exit(1);
}, 240_000);
rmSync(path.dirname(database), { recursive: true, force: true });

// 0: four workers opening a new database at the same moment all serve. Two of them switching it
// to WAL at once got SQLITE_BUSY, and the one that lost answered 500 to everything it was handed.
const OPENING_ROUNDS = 3;
for (let round = 1; round <= OPENING_ROUNDS; round++) {
  const opening = path.join(path.dirname(database), `opening-${round}.db`);
  const starting = startServer(PORT, { ...env, DATABASE_URL: `file:${opening}`, WEB_CONCURRENCY: "4" }, { output: "pipe" });
  let output = "";
  starting.stdout?.setEncoding("utf8");
  await new Promise((resolve, reject) => {
    starting.stdout?.on("data", (/** @type {string} */ chunk) => {
      output += chunk;
      if (output.includes('"msg":"ready: open')) resolve(undefined);
    });
    starting.once("exit", (code) => reject(new Error(`the server exited (${code}) before it was ready:\n${output}`)));
  });
  const { send: fresh, close: closeFresh } = client(PORT);
  // A connection each: the primary hands new connections to its workers in turn.
  const answers = await Promise.all(Array.from({ length: 40 }, () => fresh("GET", "/api/health", undefined, { connection: "close" }).then((answer) => answer.status, () => 0)));
  closeFresh();
  starting.stdout?.removeAllListeners("data");
  starting.stdout?.resume();
  await stopServer(starting, "SIGTERM");
  const served = answers.filter((status) => status === 200).length;
  // A worker that could not start exits and is replaced: the primary's "ready" would hide it.
  const failedStart = ["worker died", "could not start", "failed to start"].some((said) => output.includes(said));
  check(
    served === answers.length && !failedStart,
    `round ${round} of ${OPENING_ROUNDS}: four workers opened a new database at once and all serve (${served} of ${answers.length} requests answered 200${failedStart ? "; a worker failed to start" : ""})`,
  );
}

// 1 to 3: one server with two workers.
let server = startServer(PORT, { ...env, WEB_CONCURRENCY: "2" });
const primary = /** @type {number} */ (server.pid);
const { send, close } = client(PORT);
await waitUntilUp(send);
const [first, second] = await workersOf(primary, 2);
check(first !== undefined && second !== undefined && first !== primary, `WEB_CONCURRENCY=2 runs two workers (${first}, ${second}) under the primary (${primary})`);
const workerArgs = [first, second].map((pid) => readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0"));
check(workerArgs.every((args) => args.includes("--max-old-space-size=384")), `each worker runs with a V8 heap of WORKER_HEAP_MB (384 MiB): ${workerArgs[0].filter((arg) => arg.startsWith("--")).join(" ")}`);

const { cookie } = await signUp(send, { site: siteOf(PORT), email: newEmail("workers") });
let writing = true;
setTimeout(() => (writing = false), 5000);
const writes = await underLoad(send, 16, () => !writing, async (each, loop) => {
  const created = await each("POST", "/api/init", JSON.stringify({ sender: `@workers/loop-${loop}` }), { "content-type": "application/json" });
  if (created.status !== 201) return [created.status];
  const { id } = JSON.parse(created.text);
  if (loop % 4 === 0) return [created.status, (await approvedIntoNewProject(each, siteOf(PORT), cookie, id, "Workers")) ? 200 : 409];
  return [created.status, (await each("GET", `/api/init/${id}`)).status];
});
const written = [...writes.statuses.entries()].map(([status, count]) => `${count}× ${status}`).join(", ");
check(writes.failed === 0 && [...writes.statuses.keys()].every((status) => status === 200 || status === 201) && (writes.statuses.get(201) ?? 0) > 0, `two workers writing at once for 5 s: ${written}; failed ${writes.failed}`);

// Held requests on their own connections, which the primary hands to both workers in turn.
const HELD = 8;
const HELD_SECONDS = 60;
const heldInits = await Promise.all(
  Array.from({ length: HELD }, async (_unused, number) => JSON.parse((await send("POST", "/api/init", JSON.stringify({ sender: `@workers/held-${number}` }), { "content-type": "application/json" })).text).id),
);
const heldSince = performance.now();
const held = heldInits.map((id) => send("GET", `/api/init/${id}`, undefined, { prefer: `wait=${HELD_SECONDS}` }));
await sleep(1000);
for (const id of heldInits) await approvedIntoNewProject(send, siteOf(PORT), cookie, id, "Held");
const heldAnswers = await Promise.all(held);
const heldSeconds = (performance.now() - heldSince) / 1000;
check(
  heldAnswers.every((answer) => answer.status === 200 && JSON.parse(answer.text).status === "done") && heldSeconds < HELD_SECONDS / 2,
  `${HELD} requests held on both workers all end on their approval, after ${heldSeconds.toFixed(1)} s of a ${HELD_SECONDS} s wait`,
);

let polling = true;
const reads = underLoad(send, 8, () => !polling, async (each) => [(await each("GET", "/api/live")).status]);
await sleep(500);
process.kill(/** @type {number} */ (first), "SIGKILL");
const replaced = await (async () => {
  for (let attempt = 0; attempt < 120; attempt++) {
    const workers = processTree(primary).slice(1);
    const fresh = workers.find((pid) => pid !== first && pid !== second);
    if (workers.length === 2 && fresh !== undefined) return fresh;
    await sleep(250);
  }
  return undefined;
})();
const replacedAt = performance.now();
check(replaced !== undefined && !alive(/** @type {number} */ (first)), `a worker killed with SIGKILL (${first}) is replaced (${replaced})`);
await waitUntilUp(send);
await sleep(1000);
polling = false;
const during = await reads;
const answered = during.statuses.get(200) ?? 0;
// Requests on the killed worker's connections are cut off, and so are new connections the primary
// hands it before it learns of the death (how many depends on the machine's load); every request
// sent once the replacement runs is answered.
check(
  answered > 0 && [...during.statuses.keys()].every((status) => status === 200) && during.lastFailedSentAt < replacedAt,
  `the service answered all along: ${answered}× 200; ${during.failed} cut off with the killed worker, none after its replacement`,
);
const after = await Promise.all(Array.from({ length: 50 }, () => send("GET", "/api/live")));
check(after.every((answer) => answer.status === 200), "50 requests after the replacement: all 200");

// 4: a graceful stop. Requests held waiting on a pending init are answered with its status,
// at once, not cut when the workers exit 5 s later.
const pendingInits = await Promise.all(
  Array.from({ length: HELD }, async (_unused, number) => JSON.parse((await send("POST", "/api/init", JSON.stringify({ sender: `@workers/stop-${number}` }), { "content-type": "application/json" })).text).id),
);
const heldAtStop = pendingInits.map((id) => send("GET", `/api/init/${id}`, undefined, { prefer: `wait=${HELD_SECONDS}` }).catch(() => null));
const streamsAtStop = pendingInits.map((id) => send("GET", `/api/init/${id}/events`).catch(() => null));
await sleep(1000);
const exited = new Promise((resolve) => server.once("exit", (code) => resolve(code)));
const stopSince = performance.now();
server.kill("SIGTERM");
const answersAtStop = await Promise.all(heldAtStop);
const answeredIn = (performance.now() - stopSince) / 1000;
const pendingAtStop = answersAtStop.filter((answer) => answer?.status === 200 && JSON.parse(answer.text).status === "pending").length;
check(pendingAtStop === HELD && answeredIn < 4, `SIGTERM: the ${HELD} requests held on both workers are answered (${pendingAtStop}× 200 pending) ${answeredIn.toFixed(1)} s after it, not cut`);
const streamsEnded = (await Promise.all(streamsAtStop)).filter((answer) => answer?.status === 200 && /^retry: 100\n\nid: pending\ndata: \{[^\n]*\}\n\n$/.test(answer.text)).length;
const streamsEndedIn = (performance.now() - stopSince) / 1000;
check(streamsEnded === HELD && streamsEndedIn < 4, `SIGTERM: the ${HELD} event streams open on both workers end (${streamsEnded} after their pending event) ${streamsEndedIn.toFixed(1)} s after it, not cut`);
const code = await exited;
const stopped = /** @type {number[]} */ ([second, replaced]);
check(code === 0 && (await allExited(stopped)), `SIGTERM stops the primary (exit code ${code}) and its workers (${stopped.filter(alive).join(", ") || "none left"})`);
close();

// 5: the primary killed alone.
server = startServer(PORT, { ...env, WEB_CONCURRENCY: "2" });
const third = client(PORT);
await waitUntilUp(third.send);
const left = await workersOf(/** @type {number} */ (server.pid), 2);
const killedPrimary = new Promise((resolve) => server.once("exit", resolve));
process.kill(/** @type {number} */ (server.pid), "SIGKILL");
await killedPrimary;
const gone = await allExited(left);
third.close();
check(gone, `the primary killed with SIGKILL: its workers (${left.join(", ")}) exit too`);

// 6: one process.
server = startServer(PORT, { ...env, WEB_CONCURRENCY: "1" });
const single = client(PORT);
await waitUntilUp(single.send);
check(processTree(/** @type {number} */ (server.pid)).length === 1 && (await single.send("GET", "/api/live")).status === 200, "WEB_CONCURRENCY=1 serves from one process");
await stopServer(server, "SIGTERM");
single.close();

// 7: a process that cannot open its database at start (here its folder cannot be made) ends with
// the reason. Next.js keeps a failed start-up hook: the process used to listen on, answering
// every request with that error.
const unopenable = spawn(process.execPath, [path.join(root, "server.mjs")], {
  cwd: root,
  stdio: ["ignore", "pipe", "pipe"],
  env: { ...process.env, ...env, PORT: String(PORT), HOSTNAME: "127.0.0.1", WEB_CONCURRENCY: "1", DATABASE_URL: `file:${path.join(root, "package.json", "initlink.db")}` },
});
let unopenableOutput = "";
unopenable.stdout?.setEncoding("utf8").on("data", (/** @type {string} */ chunk) => (unopenableOutput += chunk));
const unopenableExit = new Promise((resolve) => unopenable.once("exit", (exitCode) => resolve(exitCode)));
/** @type {NodeJS.Timeout | undefined} */
let unopenableDeadline;
const ended = await Promise.race([unopenableExit, new Promise((resolve) => (unopenableDeadline = setTimeout(resolve, 30_000, "still running")))]);
// Cleared, or the finished test would sit out the 30 s before Node exits.
clearTimeout(unopenableDeadline);
if (ended === "still running") unopenable.kill("SIGKILL");
check(ended === 1 && unopenableOutput.includes('"msg":"the server could not start"'), `a process that cannot open its database at start exits (${ended}) and says why`);

clearTimeout(watchdog);
console.log("\nworkers test: passed");
