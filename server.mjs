// @ts-check
// The production server: Next.js's request handler behind a plain node:http server, so that the
// TCP peer's address reaches the app in a header no client can set (Next's own server keeps a
// client-sent X-Forwarded-For as it is).
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import next from "next";
import { MissingMasterKeyError, resolveMasterKey } from "./lib/runtime/master-key.mjs";
import { isHttpsOrigin, PEER_ADDRESS_HEADER, REQUEST_ID_HEADER } from "./lib/runtime/request-context.mjs";

const port = Number(process.env.PORT || 3000);
const hostname = process.env.HOSTNAME || "0.0.0.0";
const dev = process.argv.includes("--dev");

// Decided on NODE_ENV as the operator set it, before it is forced to production below.
const DEV_MASTER_KEY_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), "data", "master.key");
try {
  const { key, generated } = resolveMasterKey(process.env, DEV_MASTER_KEY_FILE);
  if (generated) {
    console.log(JSON.stringify({ level: "warn", msg: "generated a development master key; set MASTER_KEY in production", file: DEV_MASTER_KEY_FILE }));
  }
  process.env.MASTER_KEY = key;
} catch (error) {
  if (!(error instanceof MissingMasterKeyError)) throw error;
  console.error(`initlink: ${error.message}`);
  process.exit(1);
}
if (!dev) Object.assign(process.env, { NODE_ENV: "production" });

const app = next({ dev, hostname, port });

// prepare() runs instrumentation.ts, which validates the configuration and exits on a bad value.
await app.prepare();
const handle = app.getRequestHandler();

// Browsers that reached the service over https must never use plain http for it again.
const httpsOnly = isHttpsOrigin(process.env.APP_URL ?? "");

// One JSON line per request, carrying the id that the app's own log lines of that request
// carry too (lib/http/route.ts). The path only: a query string is never logged.
const server = createServer((request, response) => {
  const started = performance.now();
  const requestId = randomUUID();
  request.headers[PEER_ADDRESS_HEADER] = request.socket.remoteAddress ?? "";
  request.headers[REQUEST_ID_HEADER] = requestId;
  response.setHeader("X-Request-Id", requestId);
  if (httpsOnly) response.setHeader("Strict-Transport-Security", "max-age=63072000; includeSubDomains");
  response.on("finish", () => {
    const line = {
      level: "info",
      msg: "request",
      request_id: requestId,
      method: request.method,
      path: (request.url ?? "").split("?")[0],
      status: response.statusCode,
      ms: Math.round(performance.now() - started),
    };
    console.log(JSON.stringify(line));
  });
  void handle(request, response);
});

server.listen(port, hostname, () => {
  console.log(JSON.stringify({ level: "info", msg: "listening", url: `http://${hostname}:${port}`, pid: process.pid }));
});

for (const signal of /** @type {const} */ (["SIGTERM", "SIGINT"])) {
  process.once(signal, () => {
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 5000).unref();
  });
}
