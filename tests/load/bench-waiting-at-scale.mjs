// @ts-check
// The waiting benchmark at scale: 100,000 clients, each waiting on its own init with
// `Prefer: wait=60` and asking again when a wait ends pending, from 16 loopback source addresses
// (each has about 28,000 local ports towards one server port) in 8 processes (a process may
// hold 20,000 open files here). It reports how many were held, the acceptance of their
// connections as they arrived, the server's total RSS (primary and workers) before and while
// holding them, its CPU per waiting client-minute over a minute of waiting, the delay from each
// of 1,000 approvals and denials made during the wait to the answer of the client waiting on
// that init (p50, p99), and how long SIGTERM takes to answer every waiting client. Then the same
// CPU figure for the peer, node-oidc-provider's device flow, its clients polling the token
// endpoint at the 5-second interval. With BENCH_WAITING_AT_SCALE_STREAMS=1 the clients follow
// their init's event stream instead (what a parked stream costs; docs/benchmark.md). Measures,
// never asserts; needs a production build.
// `node tests/load/bench-waiting-at-scale.mjs` runs it alone; tests/load/bench.mjs calls it.
import { fork } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createWriteStream, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { approvedIntoNewProject, newEmail, signUp } from "../helpers/journey.mjs";
import { percentiles, processTree, root, rssMiB, siteOf, startServer, stopServer, waitUntilUp } from "./load-tools.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const PORT = Number(process.env.BENCH_WAITING_PORT || 3500) + 1;
const PEER_PORT = PORT + 1;
const CLIENTS = Number(process.env.BENCH_WAITING_AT_SCALE_CLIENTS || 100_000);
/** Worker processes: each may hold 20,000 open files here, so 100,000 sockets need at least 6. */
const WORKERS = Number(process.env.BENCH_WAITING_AT_SCALE_WORKERS || 7);
const CLIENT_PROCESSES = 8;
const ADDRESSES = 16;
const ARRIVAL_SECONDS = Number(process.env.BENCH_WAITING_AT_SCALE_ARRIVAL_SECONDS || 60);
const DECISIONS = Number(process.env.BENCH_WAITING_AT_SCALE_DECISIONS || 1000);
const PEER_CLIENTS = Number(process.env.BENCH_WAITING_AT_SCALE_PEER_CLIENTS || 10_000);
const PEER_INTERVAL_MS = 5000;
const WAIT_SECONDS = 60;
/** node:cluster's scheduling: "none" (each worker accepts) or "rr" (the primary hands off). */
const SCHEDULING = process.env.BENCH_WAITING_AT_SCALE_SCHEDULING || "none";
const MEASURE_MS = Number(process.env.BENCH_WAITING_AT_SCALE_MEASURE_SECONDS || 60) * 1000;
/** "1": the clients follow their init's event stream instead of holding requests with Prefer: wait. */
const STREAMS = process.env.BENCH_WAITING_AT_SCALE_STREAMS === "1";

const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));
const now = () => performance.timeOrigin + performance.now();
/** @param {string} line */
const progress = (line) => process.stderr.write(`bench-waiting-at-scale: ${line}\n`);

/** CPU seconds (user and system) the process tree of `pid` has used. @param {number} pid */
function cpuSeconds(pid) {
  let ticks = 0;
  for (const each of processTree(pid)) {
    try {
      const fields = readFileSync(`/proc/${each}/stat`, "utf8").split(") ")[1].split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // exited meanwhile
    }
  }
  return ticks / 100;
}

/** Open files of each process of the tree of `pid` (primary first). @param {number} pid */
function openFiles(pid) {
  return processTree(pid).map((each) => {
    try {
      return readdirSync(`/proc/${each}/fd`).length;
    } catch {
      return 0;
    }
  });
}

/** The total RSS of the process tree of `pid`, MiB. @param {number} pid */
const totalRssMiB = (pid) => processTree(pid).reduce((sum, each) => sum + rssMiB(each), 0);

/**
 * Requests over a keep-alive pool of `sockets` connections.
 * @param {number} port @param {number} sockets
 * @returns {{ send: (method: string, target: string, body?: string, headers?: Record<string, string>) => Promise<{ status: number, headers: Record<string, string>, text: string }>, close: () => void }}
 */
function pool(port, sockets) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  return {
    send: (method, target, body, headers = {}) =>
      new Promise((resolve, reject) => {
        const request = http.request({ host: "127.0.0.1", port, agent, method, path: target, headers }, (response) => {
          let text = "";
          response.setEncoding("utf8");
          response.on("data", (chunk) => (text += chunk));
          response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: /** @type {Record<string, string>} */ (response.headers), text }));
        });
        request.on("error", reject);
        request.end(body);
      }),
    close: () => agent.destroy(),
  };
}

/** Runs `task` over `items`, `concurrency` at a time. @template T, R @param {T[]} items @param {number} concurrency @param {(item: T) => Promise<R>} task */
async function inParallel(items, concurrency, task) {
  /** @type {R[]} */
  const results = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await task(items[index]);
      }
    }),
  );
  return results;
}

/**
 * Writes `count` pending inits straight into the server's SQLite database, as Create Init
 * writes them (its speed is bench.mjs's business, and 100,000 of them through it would take this
 * machine minutes), from the approver's network (else a client that shows no code may not be
 * approved: client_elsewhere): their ids, in order.
 * @param {string} database @param {number} count
 */
function insertPendingInits(database, count) {
  const db = new Database(database);
  db.pragma("busy_timeout = 5000");
  const insert = db.prepare(
    `INSERT INTO "Init" ("id", "userCode", "secretHash", "sender", "status", "intervalMs", "createdAt", "expiresAt", "observedIp") VALUES (?, ?, ?, '@bench/scale', 'pending', 5000, ?, ?, '127.0.0.1')`,
  );
  const createdAt = new Date().toISOString();
  const expiresAt = new Date(Date.now() + 2 * 3600_000).toISOString();
  const ids = Array.from({ length: count }, () => randomBytes(16).toString("base64url"));
  db.transaction(() => {
    for (const id of ids) insert.run(id, "BNCH-BNCH", randomBytes(32).toString("hex"), createdAt, expiresAt);
  })();
  db.close();
  return ids;
}

/** Ours: the figures, as [figure, value] pairs. */
async function measureInitlink() {
  const database = path.join(root, ".cache", "bench-waiting-at-scale", "bench.db");
  rmSync(path.dirname(database), { recursive: true, force: true });
  mkdirSync(path.dirname(database), { recursive: true });
  const server = startServer(PORT, {
    DATABASE_URL: `file:${database}`,
    WEB_CONCURRENCY: String(WORKERS),
    CREATE_INIT_PER_MINUTE: "1000000",
    INIT_LIFETIME_SECONDS: "7200",
    INIT_INTERVAL_MS: "5000",
    // One key for the project the approvals go to: the reserve's RSA-4096 generations in every
    // worker would take the cores for minutes after the start.
    PROJECT_KEY_RESERVE: "1",
    // Each worker accepts its connections itself: with node:cluster's default hand-off the
    // primary accepts them all and queues each (an open file) until a worker takes it, and a
    // burst that outruns busy workers filled its 20,000 open files and reset connections.
    NODE_CLUSTER_SCHED_POLICY: SCHEDULING,
  }, { output: "pipe" });
  const serverLog = createWriteStream(path.join(path.dirname(database), "server.log"));
  server.stdout?.pipe(serverLog);
  const serverPid = /** @type {number} */ (server.pid);
  const { send, close } = pool(PORT, 64);
  /** @type {import("node:child_process").ChildProcess[]} */
  const children = [];
  try {
    await waitUntilUp(send);
    const site = siteOf(PORT);
    const person = await signUp(send, { site, email: newEmail("bench-scale") });
    const ids = insertPendingInits(database, CLIENTS);
    progress(`${CLIENTS} inits written`);
    await sleep(5000);
    const rssBefore = totalRssMiB(serverPid);

    /** @type {Map<string, { at: number, status: string }>} */
    const answers = new Map();
    /** @type {{ inFlight: number, tally: Record<string, number>, stoppedAt: number }[]} */
    const statuses = [];
    /** @type {number[]} */
    const connectMs = [];
    const perProcess = Math.ceil(CLIENTS / CLIENT_PROCESSES);
    for (let index = 0; index < CLIENT_PROCESSES; index++) {
      const child = fork(path.join(here, "waiting-clients.mjs"), [], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
      children.push(child);
      statuses.push({ inFlight: 0, tally: {}, stoppedAt: 0 });
      child.on("message", (/** @type {any} */ message) => {
        if (message.type === "answer") answers.set(message.id, { at: message.at, status: message.status });
        if (message.type === "status") {
          statuses[index] = message;
          connectMs.push(...message.connectMs);
        }
      });
      const addresses = Array.from({ length: ADDRESSES / CLIENT_PROCESSES }, (_, n) => `127.0.4.${index * (ADDRESSES / CLIENT_PROCESSES) + n + 1}`);
      child.send({ type: "start", port: PORT, ids: ids.slice(index * perProcess, (index + 1) * perProcess), addresses, arrivalMs: ARRIVAL_SECONDS * 1000, wait: WAIT_SECONDS, stream: STREAMS });
    }
    const waiting = () => statuses.reduce((sum, status) => sum + status.inFlight, 0);
    /** @returns {Record<string, number>} */
    const tallies = () => {
      /** @type {Record<string, number>} */
      const all = {};
      for (const { tally } of statuses) for (const [ending, times] of Object.entries(tally)) all[ending] = (all[ending] ?? 0) + times;
      return all;
    };
    for (let second = 0; second < ARRIVAL_SECONDS + 10; second += 5) {
      await sleep(5000);
      progress(`${waiting()} waiting ${JSON.stringify(tallies())}; open files ${openFiles(serverPid).join(" ")}; RSS ${totalRssMiB(serverPid)} MiB`);
    }
    const arrivalTally = tallies();
    const connects = percentiles(connectMs);
    const connectFailures = Object.entries(arrivalTally).filter(([ending]) => /^E/.test(ending)).reduce((sum, [, times]) => sum + times, 0);
    const rssHolding = totalRssMiB(serverPid);
    const heldAtStart = waiting();

    // A minute of waiting: every client's 60 s wait ends once, pending, and is asked again.
    const cpuStart = cpuSeconds(serverPid);
    /** @type {number[]} */
    const samples = [];
    for (let elapsed = 0; elapsed < MEASURE_MS; elapsed += 5000) {
      await sleep(5000);
      samples.push(waiting());
      progress(`${waiting()} waiting ${JSON.stringify(tallies())}; open files ${openFiles(serverPid).join(" ")}; RSS ${totalRssMiB(serverPid)} MiB`);
    }
    const cpuUsed = cpuSeconds(serverPid) - cpuStart;
    const meanWaiting = samples.reduce((sum, value) => sum + value, 0) / samples.length;
    const cpuPerClientMinute = (cpuUsed * 1000) / (meanWaiting * (MEASURE_MS / 60_000));
    progress(`cpu ${cpuUsed.toFixed(1)} s over ${meanWaiting.toFixed(0)} waiting clients for a minute; rss ${rssBefore} → ${rssHolding} MiB`);

    // Decisions during the wait, four at a time: the first approval makes the project, the
    // others approve into it or deny.
    const step = Math.floor(CLIENTS / DECISIONS);
    const decided = Array.from({ length: DECISIONS }, (_, n) => ids[n * step]);
    let projectMade = false;
    for (let attempt = 0; attempt < 5 && !projectMade; attempt++) projectMade = await approvedIntoNewProject(send, site, person.cookie, decided[0], "Bench").catch(() => false);
    if (!projectMade) throw new Error("the first approval was refused");
    /** @type {Map<string, number>} */
    const sentAt = new Map();
    let failedDecisions = 0;
    const form = { "content-type": "application/x-www-form-urlencoded", origin: site, cookie: person.cookie };
    await inParallel(decided.slice(1), 4, async (id) => {
      const approve = sentAt.size % 2 === 0;
      sentAt.set(id, now());
      const body = approve ? new URLSearchParams({ project: decided[0], code_confirmed: "yes" }).toString() : "";
      const answer = await send("POST", `/init/${id}/${approve ? "approve" : "deny"}`, body, form).catch(() => null);
      if (answer === null || answer.status !== 303 || answer.headers.location?.includes("error=")) {
        sentAt.delete(id);
        failedDecisions += 1;
      }
    });
    await sleep(3000);
    const delays = [...sentAt].map(([id, at]) => (answers.get(id)?.at ?? Infinity) - at);
    const unanswered = delays.filter((delay) => delay === Infinity).length;
    const { p50, p99 } = percentiles(delays.filter((delay) => delay !== Infinity));

    // SIGTERM answers every waiting client: the time until the last has its answer.
    for (const child of children) child.send({ type: "stopping" });
    const waitingAtStop = waiting();
    const stopSent = now();
    await stopServer(server, "SIGTERM");
    // Workers still answering may outlive the primary by a moment.
    for (let waited = 0; waited < 30_000 && waiting() > 0; waited += 500) await sleep(500);
    await sleep(1500);
    const lastAnswered = Math.max(...statuses.map((status) => status.stoppedAt));
    const stillWaiting = waiting();

    return {
      cpuPerClientMinute,
      figures: /** @type {[string, string][]} */ ([
        [`waiting clients (${STREAMS ? "event streams" : "Prefer: wait=60"}), server workers`, `${CLIENTS} from ${ADDRESSES} addresses, ${WORKERS} workers (scheduling: ${SCHEDULING})`],
        ["held after arrival over " + ARRIVAL_SECONDS + " s", `${heldAtStart} (${JSON.stringify(arrivalTally)})`],
        ["connections: failed, open p50 / p99", `${connectFailures} of ${connectMs.length + connectFailures}, ${connects.p50.toFixed(1)} / ${connects.p99.toFixed(1)} ms`],
        ["server RSS: before, while holding (all processes)", `${rssBefore} / ${rssHolding} MiB (+${rssHolding - rssBefore} MiB)`],
        ["server CPU per waiting client-minute", `${cpuPerClientMinute.toFixed(3)} ms (${cpuUsed.toFixed(1)} s over a minute of ${meanWaiting.toFixed(0)} waiting)`],
        ["decisions during the wait (approvals, denials)", `${sentAt.size} (${unanswered} unanswered; ${failedDecisions} decisions failed)`],
        ["decision → waiting client answered, p50 / p99", `${p50.toFixed(1)} / ${p99.toFixed(1)} ms`],
        ["SIGTERM → every waiting client answered", `${waitingAtStop} waiting; last answered after ${lastAnswered > 0 ? ((lastAnswered - stopSent) / 1000).toFixed(1) + " s" : "—"}, ${stillWaiting} unanswered`],
      ]),
    };
  } finally {
    for (const child of children) child.send({ type: "exit" }, () => undefined);
    close();
    await stopServer(server, "SIGKILL");
  }
}

/** The peer's CPU per polling client-minute, its clients at the interval. */
async function measurePeer() {
  const peer = fork(path.join(here, "peer-device-flow.mjs"), [String(PEER_PORT)], { stdio: ["ignore", "ignore", "inherit", "ipc"] });
  const { send, close } = pool(PEER_PORT, 256);
  try {
    await new Promise((resolve) => peer.once("message", resolve));
    const codes = await inParallel(Array.from({ length: PEER_CLIENTS }, (_, index) => index), 64, async () => {
      const answer = await send("POST", "/device/auth", new URLSearchParams({ client_id: "bench" }).toString(), { "content-type": "application/x-www-form-urlencoded" });
      return /** @type {string} */ (JSON.parse(answer.text).device_code);
    });
    let polls = 0;
    let pending = 0;
    let running = true;
    const poll = async (/** @type {string} */ code) => {
      await sleep(Math.random() * PEER_INTERVAL_MS);
      while (running) {
        const answer = await send("POST", "/token", new URLSearchParams({ client_id: "bench", grant_type: "urn:ietf:params:oauth:grant-type:device_code", device_code: code }).toString(), {
          "content-type": "application/x-www-form-urlencoded",
        });
        polls += 1;
        if (answer.text.includes("authorization_pending")) pending += 1;
        await sleep(PEER_INTERVAL_MS);
      }
    };
    const pollers = codes.map(poll);
    await sleep(2 * PEER_INTERVAL_MS);
    const pid = /** @type {number} */ (peer.pid);
    const cpuStart = cpuSeconds(pid);
    const pollsStart = polls;
    await sleep(MEASURE_MS);
    const cpuUsed = cpuSeconds(pid) - cpuStart;
    const pollsMade = polls - pollsStart;
    running = false;
    await Promise.all(pollers);
    // Per poll, times the polls a client makes in a minute at the interval: on a machine whose
    // cores are shared, the clients may not all keep the interval.
    const cpuPerClientMinute = ((cpuUsed * 1000) / pollsMade) * (60_000 / PEER_INTERVAL_MS);
    return {
      cpuPerClientMinute,
      figures: /** @type {[string, string][]} */ ([
        ["peer: node-oidc-provider device flow, polling clients", `${PEER_CLIENTS}, every ${PEER_INTERVAL_MS / 1000} s (${pollsMade} polls in a minute, ${pending} authorization_pending in all)`],
        ["peer CPU per polling client-minute", `${cpuPerClientMinute.toFixed(3)} ms (${cpuUsed.toFixed(1)} s for ${pollsMade} polls, times ${60_000 / PEER_INTERVAL_MS} polls a minute)`],
      ]),
    };
  } finally {
    close();
    peer.kill();
  }
}

/** @returns {Promise<[string, string][]>} the figures, as [figure, value] pairs */
export async function benchWaitingAtScale() {
  const ours = await measureInitlink();
  const peer = await measurePeer();
  return [...ours.figures, ...peer.figures, ["CPU per waiting client-minute, initlink ÷ peer", (ours.cpuPerClientMinute / peer.cpuPerClientMinute).toFixed(2)]];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const [figure, value] of await benchWaitingAtScale()) console.log(`${figure.padEnd(52)} ${value}`);
}
