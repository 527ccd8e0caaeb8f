// @ts-check
// `npm run bench`: starts the production build on a scratch database and loads it over loopback
// with a fixed number of connections for a fixed time per route. Prints requests per second,
// p50/p99 latency and server RSS for each route next to the same figures for /api/live, a route
// that touches nothing, so our own cost shows apart from the framework's. Measures, never asserts.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const PORT = Number(process.env.BENCH_PORT || 3200);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 32);
const SECONDS = Number(process.env.BENCH_SECONDS || 10);
const POLLED_INITS = 2000;
const database = path.join(root, ".cache", "bench", "bench.db");

/** @param {number} pid */
function rssMiB(pid) {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Math.round(Number(match[1]) / 1024) : NaN;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });

/**
 * @param {string} method @param {string} urlPath @param {string | undefined} body
 * @param {Record<string, string>} [headers]
 * @returns {Promise<{ status: number, text: string, headers: http.IncomingHttpHeaders }>}
 */
function send(method, urlPath, body, headers = body ? { "content-type": "application/json" } : {}) {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: "127.0.0.1", port: PORT, method, path: urlPath, agent, headers },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, text, headers: response.headers }));
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

/**
 * @param {() => [string, string, string | undefined, Record<string, string>?]} nextRequest
 * @param {number} expectedStatus
 */
async function load(nextRequest, expectedStatus) {
  /** @type {number[]} */
  const latencies = [];
  let unexpected = 0;
  const deadline = performance.now() + SECONDS * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < deadline) {
        const [method, urlPath, body, headers] = nextRequest();
        const begin = performance.now();
        const { status } = await send(method, urlPath, body, headers);
        latencies.push(performance.now() - begin);
        if (status !== expectedStatus) unexpected += 1;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (/** @type {number} */ q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  return { rps: latencies.length / elapsed, p50: at(0.5), p99: at(0.99), requests: latencies.length, unexpected };
}

async function waitUntilUp() {
  for (let attempt = 0; attempt < 600; attempt++) {
    try {
      if ((await send("GET", "/api/live", undefined)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error("the server did not start");
}

/**
 * @template {{ status: number, text: string }} R
 * @param {R} response @param {number} expected @param {string} step
 * @returns {R}
 */
function expectStatus(response, expected, step) {
  if (response.status !== expected) throw new Error(`${step} answered ${response.status}: ${response.text}`);
  return response;
}

/** What a person and a CLI do before links: sign up, approve an init, collect the token, link once. */
async function linkedClient() {
  const form = { "content-type": "application/x-www-form-urlencoded", origin: `http://127.0.0.1:${PORT}` };
  const signUp = expectStatus(await send("POST", "/auth/signup", "email=bench%40example.com&password=correct+horse+battery", form), 303, "sign-up");
  const cookie = String(signUp.headers["set-cookie"]).split(";")[0];
  const init = JSON.parse(expectStatus(await send("POST", "/api/init", JSON.stringify({ sender: "@bench/cli" })), 201, "Create Init").text);
  const approval = expectStatus(await send("POST", `/init/${init.id}/approve`, "project=new&name=Bench&code_confirmed=yes", { ...form, cookie }), 303, "approval");
  if (String(approval.headers.location).includes("error=")) throw new Error(`approval failed: ${approval.headers.location}`);
  const status = JSON.parse(expectStatus(await send("GET", `/api/init/${init.id}`, undefined, { authorization: `Bearer ${init.secret}` }), 200, "token pickup").text);
  const linkPath = `/api/projects/${status.project_id}/link/${randomBytes(16).toString("hex")}`;
  const link = JSON.parse(expectStatus(await send("POST", linkPath, undefined, { authorization: `Bearer ${status.access_token}` }), 200, "Create Project Link").text);
  return { projectId: status.project_id, accessToken: status.access_token, bearer: link.bearer };
}

rmSync(path.dirname(database), { recursive: true, force: true });
const server = spawn(process.execPath, [path.join(root, "scripts", "start.mjs")], {
  cwd: root,
  stdio: ["ignore", "ignore", "inherit"],
  env: {
    ...process.env,
    PORT: String(PORT),
    HOSTNAME: "127.0.0.1",
    APP_URL: `http://127.0.0.1:${PORT}`,
    DATABASE_URL: `file:${database}`,
    // Short enough that cycling over the polled inits never polls one too fast.
    INIT_INTERVAL_MS: "100",
    MASTER_KEY: randomBytes(32).toString("base64"),
    // The bench is one address creating inits as fast as it can.
    CREATE_INIT_PER_MINUTE: "1000000",
    NEXT_TELEMETRY_DISABLED: "1",
  },
});
const serverPid = /** @type {number} */ (server.pid);

try {
  await waitUntilUp();
  const rssAtStart = rssMiB(serverPid);
  /** @type {string[]} */
  const ids = [];
  for (let i = 0; i < POLLED_INITS; i++) {
    ids.push(JSON.parse((await send("POST", "/api/init", JSON.stringify({ sender: "@bench/cli" }))).text).id);
  }
  const client = await linkedClient();
  // Warm up every route so JIT and first-request work stay out of the figures.
  await Promise.all(ids.slice(0, 200).map((id) => send("GET", `/api/init/${id}`, undefined)));
  await Promise.all(Array.from({ length: 50 }, () => send("GET", `/api/projects/${client.projectId}`, undefined, { authorization: client.bearer })));
  await new Promise((resolve) => setTimeout(resolve, 200));

  let next = 0;
  const routes = [
    { name: "GET /api/live (baseline)", run: () => load(() => ["GET", "/api/live", undefined], 200) },
    { name: "POST /api/init", run: () => load(() => ["POST", "/api/init", '{"sender":"@bench/cli","sender_device":"bench"}'], 201) },
    { name: "GET /api/init/{id}", run: () => load(() => ["GET", `/api/init/${ids[next++ % ids.length]}`, undefined], 200) },
    {
      name: "POST …/link/{iv} (new)",
      run: () => load(() => ["POST", `/api/projects/${client.projectId}/link/${randomBytes(16).toString("hex")}`, undefined, { authorization: `Bearer ${client.accessToken}` }], 200),
    },
    { name: "GET /api/projects/{id}", run: () => load(() => ["GET", `/api/projects/${client.projectId}`, undefined, { authorization: client.bearer }], 200) },
  ];
  /** @type {{ name: string, rps: number, p50: number, p99: number, requests: number, unexpected: number, rss: number }[]} */
  const results = [];
  for (const route of routes) {
    const figures = await route.run();
    results.push({ name: route.name, ...figures, rss: rssMiB(serverPid) });
  }
  const base = results[0];
  console.log(`\n${CONNECTIONS} connections, ${SECONDS} s per route, loopback, server RSS at start ${rssAtStart} MiB\n`);
  console.log("route                      req/s   p50 ms  p99 ms  requests  unexpected  RSS MiB  req/s vs baseline");
  for (const r of results) {
    console.log(
      `${r.name.padEnd(25)} ${r.rps.toFixed(0).padStart(6)} ${r.p50.toFixed(2).padStart(8)} ${r.p99.toFixed(2).padStart(7)} ${String(r.requests).padStart(9)} ${String(r.unexpected).padStart(11)} ${String(r.rss).padStart(8)}  ${(r.rps / base.rps).toFixed(2).padStart(8)}`,
    );
  }
} finally {
  server.kill("SIGTERM");
  agent.destroy();
}
