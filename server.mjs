// @ts-check
// The production server: Next.js's request handler behind a plain node:http server, so that the
// TCP peer's address reaches the app in a header no client can set (Next's own server keeps a
// client-sent X-Forwarded-For as it is). `npm start` runs one worker per core (WEB_CONCURRENCY)
// under a primary (lib/runtime/primary.mjs); with one worker, or under `--dev`, it is one process.
import cluster from "node:cluster";
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import next from "next";
import pino from "pino";
import { checkEnvironmentOrExit } from "./lib/runtime/check-environment.mjs";
import { refuseOversizedBody } from "./lib/runtime/body-limit.mjs";
import { runPrimary } from "./lib/runtime/primary.mjs";
import { workerCount } from "./lib/runtime/worker-count.mjs";
import { API_POLICY, isHttpsOrigin, loggedPath, PEER_ADDRESS_HEADER, REQUEST_ID_HEADER, STOPPING_EVENT } from "./lib/runtime/request-context.mjs";

const port = Number(process.env.PORT || 3000);
const hostname = process.env.HOSTNAME || "0.0.0.0";
const dev = process.argv.includes("--dev");

async function serve() {
  const app = next({ dev, hostname, port });
  // prepare() runs instrumentation.ts, which validates the configuration and exits on a bad value.
  await app.prepare();
  const handle = app.getRequestHandler();

  // Browsers that reached the service over https must never use plain http for it again.
  const httpsOnly = isHttpsOrigin(process.env.APP_URL ?? "");

  // One JSON line per request, carrying the id that the app's own log lines of that request
  // carry too (lib/http/route.ts). The path only (loggedPath): no query string, no whole iv. pino writes
  // from a buffer when stdout is free rather than once per request, and flushes on exit.
  const log = pino(
    { base: null, timestamp: false, formatters: { level: (label) => ({ level: label }) } },
    pino.destination({ sync: false }),
  );

  const server = createServer((request, response) => {
    const started = performance.now();
    const requestId = randomUUID();
    const url = request.url ?? "";
    request.headers[PEER_ADDRESS_HEADER] = request.socket.remoteAddress ?? "";
    request.headers[REQUEST_ID_HEADER] = requestId;
    response.setHeader("X-Request-Id", requestId);
    if (httpsOnly) response.setHeader("Strict-Transport-Security", "max-age=63072000; includeSubDomains");
    // API answers are JSON and may load nothing; proxy.ts (the pages' policy) does not run for them.
    if (url.startsWith("/api/") || url.startsWith("/.well-known/")) response.setHeader("Content-Security-Policy", API_POLICY);
    response.on("finish", () => {
      log.info(
        { request_id: requestId, method: request.method, path: loggedPath(url), status: response.statusCode, ms: Math.round(performance.now() - started) },
        "request",
      );
    });
    if (refuseOversizedBody(request, response)) return;
    void handle(request, response);
  });

  // Node closes an idle keep-alive connection after 5 s; a client (or a load balancer, whose idle
  // timeout is commonly 60 s) that reuses it just then gets ECONNRESET. Idle connections are
  // cheap here, so the server outwaits them; headersTimeout must exceed it.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;

  server.listen(port, hostname, () => {
    console.log(JSON.stringify({ level: "info", msg: "listening", url: `http://${hostname}:${port}`, pid: process.pid }));
  });

  // A stop finishes the requests under way (up to 5 s); requests held waiting on an init are
  // answered at once with its status as it is. process.on, not once: under a terminal, Ctrl-C
  // reaches a worker twice (from the terminal and from the primary).
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    /** @type {import("node:events").EventEmitter} */ (process).emit(STOPPING_EVENT);
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 5000).unref();
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

if (cluster.isPrimary) {
  // Once, by the primary (or the one process), before anything forks, listens or logs.
  checkEnvironmentOrExit(path.dirname(fileURLToPath(import.meta.url)));
  if (!dev) Object.assign(process.env, { NODE_ENV: "production" });
  // The development server compiles on demand and reloads itself: one process only.
  const workers = dev ? 1 : workerCount(process.env.WEB_CONCURRENCY);
  if (workers > 1) runPrimary(workers, fileURLToPath(import.meta.url), process.argv.slice(2));
  else await serve();
} else {
  await serve();
}
