// @ts-check
// What the bench, crash and soak scripts share: a production server on a scratch database and
// the journey's transport over keep-alive connections (the journey: tests/helpers/journey.mjs).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { linkedClient, newEmail } from "../helpers/journey.mjs";

export const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Resident memory of a process, MiB. @param {number} pid */
export function rssMiB(pid) {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Math.round(Number(match[1]) / 1024) : NaN;
}

/** A process and its descendants (a multi-process server's primary and workers). @param {number} pid @returns {number[]} */
export function processTree(pid) {
  const file = `/proc/${pid}/task/${pid}/children`;
  if (!existsSync(file)) return [pid];
  const children = readFileSync(file, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  return [pid, ...children.flatMap(processTree)];
}

/** The largest resident memory of a server's processes, MiB. @param {number} pid */
export function largestRssMiB(pid) {
  return Math.max(...processTree(pid).map((each) => {
    try {
      return rssMiB(each);
    } catch {
      return 0; // exited meanwhile
    }
  }));
}

/** @typedef {import("../helpers/journey.mjs").Send} Send */

/** Headers as the journey reads them: a repeated one (Set-Cookie) one value a line. @param {http.IncomingHttpHeaders} headers */
function joined(headers) {
  /** @type {Record<string, string>} */
  const values = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) values[name] = Array.isArray(value) ? value.join("\n") : value;
  return values;
}

/**
 * A request function for one server over keep-alive sockets, as many as requests in flight
 * (the callers bound those). Every request settles: answered, failed, or cut off.
 * @param {number} port
 * @returns {{ send: Send, close: () => void }}
 */
export function client(port) {
  const agent = new http.Agent({ keepAlive: true });
  /** @type {Send} */
  const send = (method, urlPath, body, headers = body ? { "content-type": "application/json" } : {}) =>
    new Promise((resolve, reject) => {
      const request = http.request({ host: "127.0.0.1", port, method, path: urlPath, agent, headers }, (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, text, headers: joined(response.headers) }));
        // A server killed in the middle of an answer: "aborted" on the response, never "end"
        // and nothing on the request.
        response.on("error", reject);
      });
      request.on("error", reject);
      // A server that dies mid-request must not leave the caller waiting for ever.
      request.setTimeout(30_000, () => request.destroy(new Error("no answer within 30 s")));
      request.end(body);
    });
  return { send, close: () => agent.destroy() };
}

/** The server's APP_URL: the load runs on loopback. @param {number} port */
export const siteOf = (port) => `http://127.0.0.1:${port}`;

/**
 * Starts `npm start`'s server (production build) on `port` with `env` on top of the defaults;
 * WEB_CONCURRENCY is npm start's default (a worker per core) unless `env` sets it.
 * @param {number} port @param {Record<string, string>} env
 * @param {{ output?: "ignore" | "inherit" | "pipe" }} [options] pipe: the caller reads the server's stdout
 */
export function startServer(port, env, { output = "ignore" } = {}) {
  return spawn(process.execPath, [path.join(root, "scripts", "start.mjs")], {
    cwd: root,
    stdio: ["ignore", output, "inherit"],
    env: {
      ...process.env,
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      APP_URL: siteOf(port),
      MASTER_KEY: randomBytes(32).toString("base64"),
      NEXT_TELEMETRY_DISABLED: "1",
      ...env,
    },
  });
}

/**
 * Stops a server and waits until its process has exited (and so freed its port). SIGKILL goes
 * to every process of it, primary and workers at once, as a crash of the whole service would;
 * other signals to the primary, which stops its workers itself.
 * @param {import("node:child_process").ChildProcess} server @param {NodeJS.Signals} signal
 */
export async function stopServer(server, signal) {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once("exit", resolve));
  if (signal === "SIGKILL") for (const pid of processTree(/** @type {number} */ (server.pid)).reverse()) process.kill(pid, signal);
  else server.kill(signal);
  await exited;
}

/** Waits until the server answers /api/live. @param {Send} send */
export async function waitUntilUp(send) {
  for (let attempt = 0; attempt < 720; attempt++) {
    try {
      if ((await send("GET", "/api/live")).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error("the server did not start");
}

/**
 * The journey up to a link, as the load's one person and client.
 * @param {Send} send @param {number} port
 */
export const loadClient = (send, port) => linkedClient(send, { site: siteOf(port), email: newEmail("load"), name: "Load", init: { sender: "@load/cli" } });

/** p50 and p99 of a list of latencies (ms). @param {number[]} latencies */
export function percentiles(latencies) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (/** @type {number} */ q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return { p50: at(0.5), p99: at(0.99) };
}
