// @ts-check
// `npm run test:operations`: what an operator sees of the production server (docs/operations.md).
// 1. npm start says each phase in one JSON line, ends with `ready` and the APP_URL to open, and
//    every line of its output is JSON (Next's own lines included).
// 2. An incoming X-Request-Id is kept when sane, replaced when not, echoed on the answer and
//    carried by the request's log line, with the route's pattern.
// 3. GET /api/metrics counts requests by route pattern (never an id).
// 4. An unexpected error (a table dropped under the running server) is answered 500 without
//    detail and logged with its stack and the request's id.
// 5. With two workers a scrape, whichever worker answers it, counts both workers' requests.
// Prints each check; exits non-zero on the first failure.
import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import Database from "better-sqlite3";
import { parseMetrics, sampleValue } from "../helpers/metrics-text.mjs";
import { client, root, siteOf, startServer, stopServer, waitUntilUp } from "./load-tools.mjs";

const PORT = Number(process.env.OPERATIONS_PORT || 3260);
const folder = path.join(root, ".cache", "operations");
const env = { DATABASE_URL: `file:${path.join(folder, "operations.db")}`, CREATE_INIT_PER_MINUTE: "1000000" };

/** @param {boolean} condition @param {string} message */
function check(condition, message) {
  if (!condition) {
    console.error(`operations test: FAILED: ${message}`);
    process.exit(1);
  }
  console.log(`ok - ${message}`);
}

const watchdog = setTimeout(() => {
  console.error("operations test: stuck for 4 minutes");
  process.exit(1);
}, 240_000);

/**
 * A server whose output is kept, line by line, as parsed JSON (or the raw line, to be reported).
 * @param {Record<string, string>} extra
 */
function startWatched(extra) {
  const server = startServer(PORT, { ...env, ...extra }, { output: "pipe" });
  /** @type {Record<string, unknown>[]} */
  const lines = [];
  /** @type {string[]} */
  const notJson = [];
  let partial = "";
  server.stdout?.setEncoding("utf8");
  server.stdout?.on("data", (/** @type {string} */ chunk) => {
    const parts = (partial + chunk).split("\n");
    partial = parts.pop() ?? "";
    for (const part of parts.filter((each) => each.trim() !== "")) {
      try {
        lines.push(JSON.parse(part));
      } catch {
        notJson.push(part);
      }
    }
  });
  return { server, lines, notJson };
}

/** Waits until a log line satisfies `test` (the log is written from a buffer, a moment after the answer). @param {Record<string, unknown>[]} lines @param {(line: Record<string, unknown>) => boolean} test */
async function lineWhere(lines, test) {
  for (let attempt = 0; attempt < 80; attempt++) {
    const found = lines.find(test);
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return undefined;
}

/**
 * One GET on a connection of its own, so that the cluster's primary hands each to a worker in turn.
 * @param {string} urlPath @returns {Promise<string>} the answer's body
 */
const onNewConnection = (urlPath) =>
  new Promise((resolve, reject) => {
    http.get({ host: "127.0.0.1", port: PORT, path: urlPath, agent: false }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => (text += chunk));
      response.on("end", () => resolve(text));
    }).on("error", reject);
  });

/** The whole server's metrics, as a loopback scraper reads them. @param {import("./load-tools.mjs").Send} send */
async function scrape(send) {
  const answer = await send("GET", "/api/metrics");
  if (answer.status !== 200) throw new Error(`GET /api/metrics answered ${answer.status}: ${answer.text}`);
  return parseMetrics(answer.text);
}

rmSync(folder, { recursive: true, force: true });

// 1 to 4: one process.
const single = startWatched({ WEB_CONCURRENCY: "1" });
const { send, close } = client(PORT);
await waitUntilUp(send);
const ready = await lineWhere(single.lines, (line) => typeof line.msg === "string" && line.msg.startsWith("ready"));
const phases = single.lines.map((line) => line.msg);
check(phases.includes("migrating the database") && ready?.url === siteOf(PORT) && ready.msg === `ready: open ${siteOf(PORT)}`, `npm start says its phases and where to open it: ${JSON.stringify(phases.slice(0, 6))}`);

const kept = "trace-4bf92f3577b34da6a3ce929d0e0e4736";
const keptAnswer = await send("GET", "/api/live", undefined, { "x-request-id": kept });
const keptLine = await lineWhere(single.lines, (line) => line.msg === "request" && line.request_id === kept);
check(keptAnswer.headers["x-request-id"] === kept && keptLine?.route === "/api/live" && keptLine.status === 200, "a sane incoming X-Request-Id is echoed and carried by the request's log line");

const refusedIds = ["two words", "x".repeat(129), '{"level":"fatal"}'];
for (const incoming of refusedIds) {
  const answer = await send("GET", "/api/live", undefined, { "x-request-id": incoming });
  const fresh = answer.headers["x-request-id"];
  const line = await lineWhere(single.lines, (each) => each.msg === "request" && each.request_id === fresh);
  check(fresh !== incoming && /^[0-9a-f-]{36}$/.test(fresh) && line !== undefined, `an incoming X-Request-Id ${JSON.stringify(incoming.slice(0, 20))} is replaced by a fresh one (${fresh}), logged`);
}

const before = sampleValue(await scrape(send), "initlink_http_requests_total", { method: "GET", route: "/api/init/[id]", status: "404" }) ?? 0;
const unknownIds = Array.from({ length: 3 }, () => randomUUID().replaceAll("-", "").slice(0, 22));
for (const id of unknownIds) await send("GET", `/api/init/${id}`);
const counted = await scrape(send);
const byId = counted.filter((sample) => unknownIds.some((id) => Object.values(sample.labels).some((value) => value.includes(id))));
check(
  sampleValue(counted, "initlink_http_requests_total", { method: "GET", route: "/api/init/[id]", status: "404" }) === before + 3 &&
    (sampleValue(counted, "initlink_http_request_duration_seconds_count", { method: "GET", route: "/api/init/[id]" }) ?? 0) >= 3 &&
    byId.length === 0,
  "GET /api/metrics counts 3 status requests under the route /api/init/[id], with their latency, and no series names an id",
);
check(single.notJson.length === 0, `every line of the server's output is JSON (${single.notJson.length} not: ${single.notJson.slice(0, 2).join(" | ")})`);

// An unexpected failure: the table of inits is gone under the running server.
const database = new Database(path.join(folder, "operations.db"));
database.exec('DROP TABLE "Init"');
database.close();
const failedId = "boom-6f1c2d";
const failed = await send("POST", "/api/init", JSON.stringify({ sender: "@ops/cli" }), { "content-type": "application/json", "x-request-id": failedId });
const errorLine = await lineWhere(single.lines, (line) => line.level === "error" && line.request_id === failedId);
const err = /** @type {{ stack?: string, message?: string } | undefined} */ (errorLine?.err);
check(
  failed.status === 500 && JSON.parse(failed.text).code === "internal_error" && !failed.text.includes("Init") && failed.headers["x-request-id"] === failedId,
  "an unexpected error is answered 500 internal_error, without detail, with the request's id",
);
check(typeof err?.stack === "string" && /\n\s+at /.test(err.stack) && errorLine?.path === "/api/init", `its log line carries the request's id and the error's stack (${String(err?.message).slice(0, 60)})`);
await stopServer(single.server, "SIGTERM");
close();

// 5: two workers; each request on its own connection, so both workers serve some.
rmSync(folder, { recursive: true, force: true });
const pair = startWatched({ WEB_CONCURRENCY: "2" });
const second = client(PORT);
await waitUntilUp(second.send);
await lineWhere(pair.lines, (line) => typeof line.msg === "string" && line.msg.startsWith("ready"));
const REQUESTS = 40;
for (let sent = 0; sent < REQUESTS; sent++) await onNewConnection("/api/health");
const healthLines = await (async () => {
  for (let attempt = 0; attempt < 80; attempt++) {
    const found = pair.lines.filter((line) => line.msg === "request" && line.route === "/api/health");
    if (found.length >= REQUESTS) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return [];
})();
const servedBy = new Set(healthLines.map((line) => line.pid));
const totals = [];
for (let scrapes = 0; scrapes < 4; scrapes++) {
  totals.push(sampleValue(parseMetrics(await onNewConnection("/api/metrics")), "initlink_http_requests_total", { method: "GET", route: "/api/health", status: "200" }));
}
check(servedBy.size === 2, `two workers served the ${REQUESTS} requests (pids ${[...servedBy].join(", ")})`);
check(totals.every((total) => total === healthLines.length), `every scrape, whichever worker answers it, counts all ${healthLines.length} of them: ${totals.join(", ")}`);
check(pair.notJson.length === 0, `every line of the primary's and workers' output is JSON (${pair.notJson.length} not: ${pair.notJson.slice(0, 2).join(" | ")})`);
await stopServer(pair.server, "SIGTERM");
second.close();

clearTimeout(watchdog);
console.log("\noperations test: passed");
