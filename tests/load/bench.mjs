// @ts-check
// `npm run bench`: the figures of docs/benchmark.md, each a ratio of two throughputs of the same
// build on the same machine, so our own cost shows apart from the framework's and the machine's.
// Starts the production build on a scratch database (a worker per core, then one worker), and
// a bare `next start` app with one empty route handler (tests/load/bare-next, built here on
// first use), and loads each route with wrk (`wrk -t1 -c32`, a Lua script for varying paths)
// over loopback. Prints a table of routes and the figures. Measures, never asserts: the goals
// are for this bench, not for timed tests.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { benchKeys } from "./bench-keys.mjs";
import { benchWaiting } from "./bench-waiting.mjs";
import { benchWaitingAtScale } from "./bench-waiting-at-scale.mjs";
import { benchWebhooks } from "./bench-webhooks.mjs";
import { client, largestRssMiB, loadClient, root, startServer, stopServer, waitUntilUp } from "./load-tools.mjs";
import { parseMetrics, sampleValue } from "../helpers/metrics-text.mjs";

const PORT = Number(process.env.BENCH_PORT || 3200);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 32);
const SECONDS = Number(process.env.BENCH_SECONDS || 10);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS || 2);
const WRK = process.env.WRK || "/usr/bin/wrk";
const POLLED_INITS = 2000;
const FORM = "application/x-www-form-urlencoded";
const DEVICE_CODE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
const scratch = path.join(root, ".cache", "bench");
const bareApp = path.join(root, "tests", "load", "bare-next");
const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");
const script = path.join(root, "tests", "load", "wrk", "requests.lua");

if (!existsSync(WRK)) {
  console.error(`bench: wrk not found at ${WRK} (apt-get install wrk, or set WRK)`);
  process.exit(1);
}

/** @typedef {{ method?: string, paths: string[], body?: string, authorization?: string, contentType?: string }} Load */
/** @typedef {{ rps: number, p50: string, p99: string, requests: number, failed: number, rss: number }} Figures */

/**
 * Loads one route for `seconds` with wrk while sampling the server's largest process RSS.
 * @param {string} name @param {Load} load @param {number} seconds @param {number} pid
 * @returns {Promise<Figures>}
 */
async function wrk(name, load, seconds, pid) {
  const pathsFile = path.join(scratch, `${name.replace(/\W+/g, "-")}.paths`);
  writeFileSync(pathsFile, `${load.paths.join("\n")}\n`);
  let rss = largestRssMiB(pid);
  const sampler = setInterval(() => (rss = Math.max(rss, largestRssMiB(pid))), 500);
  const args = ["-t1", `-c${CONNECTIONS}`, `-d${seconds}s`, "--latency", "-s", script, `http://127.0.0.1:${PORT}`, "--", pathsFile, load.method ?? "GET", load.body ?? "", load.authorization ?? "", load.contentType ?? ""];
  const output = await new Promise((resolve, reject) => {
    const child = spawn(WRK, args, { stdio: ["ignore", "pipe", "inherit"] });
    let text = "";
    child.stdout.on("data", (chunk) => (text += chunk));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(text) : reject(new Error(`wrk exited with ${code}:\n${text}`))));
  });
  clearInterval(sampler);
  const number = (/** @type {RegExp} */ pattern) => Number(pattern.exec(output)?.[1] ?? 0);
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  return {
    rps: number(/Requests\/sec:\s+([\d.]+)/),
    p50: /\n\s+50%\s+(\S+)/.exec(output)?.[1] ?? "?",
    p99: /\n\s+99%\s+(\S+)/.exec(output)?.[1] ?? "?",
    requests: number(/(\d+) requests in/),
    failed: number(/Non-2xx or 3xx responses: (\d+)/) + (socketErrors ? socketErrors.slice(1).reduce((sum, each) => sum + Number(each), 0) : 0),
    rss,
  };
}

/** @type {({ name: string, server: string } & Figures)[]} */
const rows = [];

/** Warms a route up (JIT, first-request work, every worker), then measures it. @param {string} name @param {string} server @param {Load} load @param {number} pid */
async function measure(name, server, load, pid) {
  await wrk(name, load, WARMUP_SECONDS, pid);
  const r = await wrk(name, load, SECONDS, pid);
  rows.push({ name, server, ...r });
  console.log(`${name.padEnd(25)} ${server.padEnd(16)} ${r.rps.toFixed(0).padStart(6)}   ${r.p50.padEnd(7)} ${r.p99.padEnd(8)} ${String(r.requests).padStart(8)} ${String(r.failed).padStart(7)} ${String(r.rss).padStart(8)}`);
  return r;
}

/**
 * Waits until the service has no key generation under way: each process fills its reserve of
 * RSA-4096 pairs when it starts (seconds of every core), which would otherwise be measured as
 * the routes' cost while a bare Next.js app has nothing of the kind.
 * @param {import("./load-tools.mjs").Send} send
 */
async function untilKeysSettled(send) {
  const giveUpAt = Date.now() + 120_000;
  for (;;) {
    const answer = await send("GET", "/api/metrics");
    if (answer.status !== 200) throw new Error(`bench: GET /api/metrics answered ${answer.status} (unset METRICS_TOKEN for the bench)`);
    const samples = parseMetrics(answer.text);
    const underWay = ["generating", "queued"].map((state) => sampleValue(samples, "initlink_project_key_pool", { state }));
    if (underWay.includes(undefined)) throw new Error("bench: /api/metrics has no initlink_project_key_pool");
    if (underWay.every((count) => count === 0)) return;
    if (Date.now() > giveUpAt) throw new Error("bench: project keys were still being generated after 120 s");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Runs `body` against the service started with `env`, then stops it. @param {Record<string, string>} env @param {(pid: number, send: import("./load-tools.mjs").Send) => Promise<void>} body */
async function withService(env, body) {
  const database = path.join(scratch, "bench.db");
  for (const file of [database, `${database}-counters`]) for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
  const server = startServer(PORT, {
    DATABASE_URL: `file:${database}`,
    // Short enough that cycling over the polled inits never polls one too fast.
    INIT_INTERVAL_MS: "100",
    // The bench is one address creating inits and one token making links as fast as it can.
    CREATE_INIT_PER_MINUTE: "1000000",
    LINKS_PER_TOKEN_PER_MINUTE: "1000000",
    ...env,
  });
  const { send, close } = client(PORT);
  try {
    await waitUntilUp(send);
    await untilKeysSettled(send);
    await body(/** @type {number} */ (server.pid), send);
  } finally {
    close();
    await stopServer(server, "SIGTERM");
  }
}

/** The bare app's `next start`, built first if it has no build yet. @param {(pid: number) => Promise<void>} body */
async function withBareNext(body) {
  const env = { ...process.env, NODE_ENV: /** @type {const} */ ("production"), NEXT_TELEMETRY_DISABLED: "1" };
  if (!existsSync(path.join(bareApp, ".next", "BUILD_ID"))) {
    const build = spawnSync(process.execPath, [nextBin, "build"], { cwd: bareApp, stdio: "inherit", env });
    if (build.status !== 0) throw new Error("building tests/load/bare-next failed");
  }
  const server = spawn(process.execPath, [nextBin, "start", "-p", String(PORT), "-H", "127.0.0.1"], { cwd: bareApp, stdio: "ignore", env });
  const { send, close } = client(PORT);
  try {
    for (let attempt = 0; ; attempt++) {
      const answer = await send("GET", "/api/empty").catch(() => undefined);
      if (answer?.status === 200) break;
      if (attempt > 240) throw new Error("the bare Next.js app did not start");
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await body(/** @type {number} */ (server.pid));
  } finally {
    close();
    await stopServer(server, "SIGTERM");
  }
}

const cores = availableParallelism();
console.log(`wrk -t1 -c${CONNECTIONS}, ${SECONDS} s per route after ${WARMUP_SECONDS} s of warm-up, loopback, ${cores} cores\n`);
console.log("route                     server            req/s   p50     p99      requests  failed  largest RSS MiB");
const live = { paths: ["/api/live"] };
rmSync(scratch, { recursive: true, force: true });
mkdirSync(scratch, { recursive: true });

/** @type {Record<string, number>} */
const rps = {};
let largestRss = 0;

await withService({}, async (pid, send) => {
  /** @type {string[]} */
  const polls = [];
  for (let i = 0; i < POLLED_INITS; i++) {
    polls.push(`/api/init/${JSON.parse((await send("POST", "/api/init", JSON.stringify({ sender: "@bench/cli" }))).text).id}`);
  }
  // Device authorizations polled at the token endpoint while pending: each line its own
  // device code, cycled like the status polls, so none is asked sooner than its interval.
  /** @type {string[]} */
  const tokenPolls = [];
  for (let i = 0; i < POLLED_INITS; i++) {
    const answer = await send("POST", "/api/oauth/device_authorization", "client_id=%40bench%2Fcli", { "content-type": FORM });
    const deviceCode = JSON.parse(answer.text).device_code;
    tokenPolls.push(`/api/oauth/token\t${new URLSearchParams({ grant_type: DEVICE_CODE_GRANT, device_code: deviceCode, client_id: "@bench/cli" })}`);
  }
  const linked = await loadClient(send, PORT);
  rps.live = (await measure("GET /api/live", `${cores} workers`, live, pid)).rps;
  rps.poll = (await measure("GET /api/init/{id}", `${cores} workers`, { paths: polls }, pid)).rps;
  rps.create = (await measure("POST /api/init", `${cores} workers`, { method: "POST", paths: ["/api/init"], body: '{"sender":"@bench/cli","sender_device":"bench"}' }, pid)).rps;
  // Answered 400 authorization_pending, as RFC 8628 §3.5 says: wrk counts them as failed.
  rps.tokenPoll = (await measure("POST /api/oauth/token (pending)", `${cores} workers`, { method: "POST", paths: tokenPolls, contentType: FORM }, pid)).rps;
  rps.deviceAuthorization = (await measure("POST …/device_authorization", `${cores} workers`, { method: "POST", paths: ["/api/oauth/device_authorization"], body: "client_id=%40bench%2Fcli", contentType: FORM }, pid)).rps;
  await measure("POST …/link/{iv} (new)", `${cores} workers`, { method: "POST", paths: [`/api/projects/${linked.projectId}/link/{iv}`], authorization: `Bearer ${linked.accessToken}` }, pid);
  await measure("GET /api/projects/{id}", `${cores} workers`, { paths: [`/api/projects/${linked.projectId}`], authorization: linked.bearer }, pid);
});
// One process has no primary to give it WORKER_HEAP_MB: it is started as docs/configuration.md says.
await withService({ WEB_CONCURRENCY: "1", NODE_OPTIONS: "--max-old-space-size=384" }, async (pid) => {
  rps.liveOne = (await measure("GET /api/live", "1 worker", live, pid)).rps;
});
await withBareNext(async (pid) => {
  rps.bare = (await measure("GET /api/empty", "bare next start", { paths: ["/api/empty"] }, pid)).rps;
});
for (const row of rows) if (row.server !== "bare next start") largestRss = Math.max(largestRss, row.rss);


/** @type {[string, string][]} */
const figures = [
  ["accepted status polls ÷ GET /api/live (goal ≥ 0.75)", (rps.poll / rps.live).toFixed(2)],
  ["Create Init ÷ GET /api/live (goal ≥ 0.70)", (rps.create / rps.live).toFixed(2)],
  ["token endpoint's pending polls ÷ GET /api/live", (rps.tokenPoll / rps.live).toFixed(2)],
  ["Create Init through Device Authorization ÷ GET /api/live", (rps.deviceAuthorization / rps.live).toFixed(2)],
  ["GET /api/live, 1 worker ÷ bare next start empty route (goal ≥ 0.95)", (rps.liveOne / rps.bare).toFixed(2)],
  [`GET /api/live, ${cores} workers ÷ 1 worker (goal ≥ 1.8 on 2 cores)`, (rps.live / rps.liveOne).toFixed(2)],
  ["largest process RSS under load, primary and workers (goal ≤ 300 MB)", `${largestRss} MiB`],
];
// Each runs its own server: keys of one account never hold up another's, and 5,000 waiting clients.
figures.push(...(await benchKeys()), ...(await benchWaiting()), ...(await benchWebhooks()));
// 100,000 waiting clients and the peer: minutes of the whole machine (BENCH_WAITING_AT_SCALE_CLIENTS=0 leaves it out).
if (process.env.BENCH_WAITING_AT_SCALE_CLIENTS !== "0") figures.push(...(await benchWaitingAtScale()));

console.log("");
for (const [figure, value] of figures) console.log(`${figure.padEnd(72)} ${value}`);
