// @ts-check
// `npm run bench`: starts the production build on a scratch database and loads it over loopback
// with a fixed number of connections for a fixed time per route. Prints requests per second,
// p50/p99 latency and server RSS for each route next to the same figures for /api/live, a route
// that touches nothing, so our own cost shows apart from the framework's. Measures, never asserts.
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import path from "node:path";
import { client, loadClient, percentiles, root, rssMiB, startServer, stopServer, waitUntilUp } from "./load-tools.mjs";

const PORT = Number(process.env.BENCH_PORT || 3200);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 32);
const SECONDS = Number(process.env.BENCH_SECONDS || 10);
const POLLED_INITS = 2000;
const database = path.join(root, ".cache", "bench", "bench.db");
const { send, close } = client(PORT);

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
  return { rps: latencies.length / elapsed, ...percentiles(latencies), requests: latencies.length, unexpected };
}

rmSync(path.dirname(database), { recursive: true, force: true });
const server = startServer(PORT, {
  DATABASE_URL: `file:${database}`,
  // Short enough that cycling over the polled inits never polls one too fast.
  INIT_INTERVAL_MS: "100",
  // The bench is one address creating inits and one token making links as fast as it can.
  CREATE_INIT_PER_MINUTE: "1000000",
  LINKS_PER_TOKEN_PER_MINUTE: "1000000",
});
const serverPid = /** @type {number} */ (server.pid);

try {
  await waitUntilUp(send);
  const rssAtStart = rssMiB(serverPid);
  /** @type {string[]} */
  const ids = [];
  for (let i = 0; i < POLLED_INITS; i++) {
    ids.push(JSON.parse((await send("POST", "/api/init", JSON.stringify({ sender: "@bench/cli" }))).text).id);
  }
  const linked = await loadClient(send, PORT);
  // Warm up every route so JIT and first-request work stay out of the figures.
  await Promise.all(ids.slice(0, 200).map((id) => send("GET", `/api/init/${id}`)));
  await Promise.all(Array.from({ length: 50 }, () => send("GET", `/api/projects/${linked.projectId}`, undefined, { authorization: linked.bearer })));
  await new Promise((resolve) => setTimeout(resolve, 200));

  let next = 0;
  const routes = [
    { name: "GET /api/live (baseline)", run: () => load(() => ["GET", "/api/live", undefined], 200) },
    { name: "POST /api/init", run: () => load(() => ["POST", "/api/init", '{"sender":"@bench/cli","sender_device":"bench"}'], 201) },
    { name: "GET /api/init/{id}", run: () => load(() => ["GET", `/api/init/${ids[next++ % ids.length]}`, undefined], 200) },
    {
      name: "POST …/link/{iv} (new)",
      run: () => load(() => ["POST", `/api/projects/${linked.projectId}/link/${randomBytes(16).toString("hex")}`, undefined, { authorization: `Bearer ${linked.accessToken}` }], 200),
    },
    { name: "GET /api/projects/{id}", run: () => load(() => ["GET", `/api/projects/${linked.projectId}`, undefined, { authorization: linked.bearer }], 200) },
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
  await stopServer(server, "SIGTERM");
  close();
}
