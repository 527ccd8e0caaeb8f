// @ts-check
// The production server: Next.js's request handler behind a plain node:http server, so that the
// TCP peer's address reaches the app in a header no client can set (Next's own server keeps a
// client-sent X-Forwarded-For as it is). `npm start` runs one worker per core (WEB_CONCURRENCY)
// under a primary (server/primary.mjs); with one worker, or under `--dev`, it is one process.
import cluster from "node:cluster";
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import next from "next";
import { checkEnvironmentOrExit } from "./server/check-environment.mjs";
import { refuseOversizedBody } from "./server/body-limit.mjs";
import { parseConfig } from "./server/config.mjs";
import { routeTargetOfAlias } from "./server/path-aliases.mjs";
import { logger, routeConsoleToLogger } from "./server/logger.mjs";
import { refuseMalformedPath } from "./server/malformed-path.mjs";
import { observeRequest, startMetrics } from "./server/metrics.mjs";
import { OPEN_FILES_BESIDES_WAITING, raiseOpenFileLimit } from "./server/open-files.mjs";
import { PARKING_HEADER, parkingEdge, stopDeadlineMs } from "./server/parking.mjs";
import { runPrimary } from "./server/primary.mjs";
import { routeMatcherOfBuild } from "./server/route-pattern.mjs";
import { setSecurityHeaders } from "./server/security-headers.mjs";
import { workerCount } from "./server/worker-count.mjs";
import { isHttpsOrigin, loggedPath, PEER_ADDRESS_HEADER, REQUEST_ID_HEADER, requestIdOf, STOPPING_EVENT } from "./server/request-context.mjs";

const hostname = process.env.HOSTNAME || "0.0.0.0";
const dev = process.argv.includes("--dev");
const root = path.dirname(fileURLToPath(import.meta.url));
const log = logger();
/** The route whose `Prefer: wait` requests the edge parks (lib/api/operations/get-init-status.ts). */
const WAITING_ROUTE = "/api/init/[id]";
/** The route whose event streams the edge parks (lib/api/operations/stream-init-events.ts). */
const STREAM_ROUTE = "/api/init/[id]/events";
const LISTEN_BACKLOG = 65_535;

/** Raises the open-file limit (before any worker is forked), and says so when it is below the waiting room. */
function checkOpenFiles() {
  const limits = raiseOpenFileLimit();
  const { waitingPerProcess } = parseConfig(process.env);
  if (limits !== null && limits.soft < waitingPerProcess + OPEN_FILES_BESIDES_WAITING) {
    log.warn(
      { open_files: limits.soft, open_files_hard: limits.hard, waiting_per_process: waitingPerProcess },
      `the open-file limit (${limits.soft}) is below WAITING_PER_PROCESS + ${OPEN_FILES_BESIDES_WAITING}: connections past it are refused; raise it (ulimit -n, systemd LimitNOFILE) or lower WAITING_PER_PROCESS (docs/deploying.md)`,
    );
  }
}

async function serve() {
  // Checked already (checkEnvironmentOrExit, below, or by the primary before it forked).
  const { appUrl, port } = parseConfig(process.env);
  // Next.js and libraries print with console.*: their lines become JSON lines too.
  routeConsoleToLogger();
  startMetrics();
  const app = next({ dev, hostname, port });
  // prepare() runs instrumentation.ts, which validates the configuration and exits on a bad value.
  await app.prepare();
  const handle = app.getRequestHandler();
  const routeOf = routeMatcherOfBuild(root);
  // Status requests that may wait, and event streams, are parked here between passes through Next.js (server/parking.mjs).
  const { serveWaiting, serveStream } = parkingEdge(handle);

  // Browsers that reached the service over https must never use plain http for it again.
  const securityOptions = { httpsOnly: isHttpsOrigin(appUrl), dev };

  // One JSON line per request, carrying the id that the app's own log lines of that request
  // carry too (lib/api/route.ts), and its route pattern. The path only (loggedPath): no query
  // string, no whole iv.
  const server = createServer((request, response) => {
    const started = performance.now();
    const requestId = requestIdOf(request.headers[REQUEST_ID_HEADER], randomUUID);
    const url = request.url ?? "";
    const route = routeOf(url);
    request.headers[PEER_ADDRESS_HEADER] = request.socket.remoteAddress ?? "";
    // Only this edge marks a request as parked: whatever a client sent under that name goes.
    delete request.headers[PARKING_HEADER];
    request.headers[REQUEST_ID_HEADER] = requestId;
    response.setHeader("X-Request-Id", requestId);
    setSecurityHeaders(request, response, securityOptions);
    // "close" rather than "finish": a held wait or an event stream the client left counts too.
    response.on("close", () => {
      const seconds = (performance.now() - started) / 1000;
      const method = request.method ?? "GET";
      observeRequest(method, route, response.statusCode, seconds);
      log.info({ request_id: requestId, method, path: loggedPath(url), route, status: response.statusCode, ms: Math.round(seconds * 1000) }, "request");
    });
    if (refuseMalformedPath(request, response, route)) return;
    if (refuseOversizedBody(request, response, route)) return;
    const aliased = routeTargetOfAlias(url);
    if (aliased !== undefined) request.url = aliased;
    // The route of the path Next.js serves: the one worked out above unless an alias moved it.
    const target = request.method !== "GET" ? null : aliased === undefined ? route : routeOf(aliased);
    const parkable = target === STREAM_ROUTE ? serveStream : target === WAITING_ROUTE && request.headers.prefer !== undefined ? serveWaiting : null;
    if (parkable !== null) {
      parkable(request, response).catch((/** @type {unknown} */ error) => {
        log.error({ err: error, request_id: requestId }, target === STREAM_ROUTE ? "parked event stream failed" : "parked wait failed");
        response.destroy();
      });
      return;
    }
    void handle(request, response);
  });

  // Node closes an idle keep-alive connection after 5 s; a client (or a load balancer, whose idle
  // timeout is commonly 60 s) that reuses it just then gets ECONNRESET. Idle connections are
  // cheap here, so the server outwaits them; headersTimeout must exceed it.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;

  // The kernel caps the queue of connections not yet accepted at net.core.somaxconn: a burst of
  // clients arriving at once waits there instead of being refused (docs/deploying.md).
  server.listen(port, hostname, LISTEN_BACKLOG, () => {
    log.info({ address: `http://${hostname}:${port}` }, "listening");
    // One process: this is the whole server (under a primary, the primary says it).
    if (!cluster.isWorker) log.info({ url: appUrl }, `ready: open ${appUrl}`);
  });

  // A stop finishes the requests under way (up to 5 s, and a millisecond more per parked request:
  // stopDeadlineMs); requests held waiting on an init are answered with its status as it is. process.on, not once: under a terminal, Ctrl-C
  // reaches a worker twice (from the terminal and from the primary).
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    /** @type {import("node:events").EventEmitter} */ (process).emit(STOPPING_EVENT);
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), stopDeadlineMs()).unref();
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

// An error nothing caught ends the process, logged with its stack like any other line.
process.on("uncaughtException", (error) => {
  log.fatal({ err: error }, "uncaught exception; exiting");
  process.exit(1);
});

if (cluster.isPrimary) {
  // Once, by the primary (or the one process), before anything forks, listens or logs.
  checkEnvironmentOrExit(root);
  checkOpenFiles();
  if (!dev) Object.assign(process.env, { NODE_ENV: "production" });
  // The development server compiles on demand and reloads itself: one process only.
  const workers = dev ? 1 : workerCount(process.env.WEB_CONCURRENCY);
  if (workers > 1) runPrimary(workers, fileURLToPath(import.meta.url), process.argv.slice(2), parseConfig(process.env));
  else await serve();
} else {
  await serve();
}
