// @ts-check
// What the bench, crash and soak scripts share: a production server on a scratch database,
// plain HTTP requests over keep-alive connections, and the steps of a person and a client.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Resident memory of a process, MiB. @param {number} pid */
export function rssMiB(pid) {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Math.round(Number(match[1]) / 1024) : NaN;
}

/**
 * @typedef {{ status: number, text: string, headers: http.IncomingHttpHeaders }} Answer
 * @typedef {(method: string, urlPath: string, body?: string, headers?: Record<string, string>) => Promise<Answer>} Send
 */

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
        response.on("end", () => resolve({ status: response.statusCode ?? 0, text, headers: response.headers }));
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

/**
 * Starts `npm start`'s server (production build) on `port` with `env` on top of the defaults.
 * @param {number} port @param {Record<string, string>} env
 * @param {{ output?: "ignore" | "inherit" }} [options]
 */
export function startServer(port, env, { output = "ignore" } = {}) {
  return spawn(process.execPath, [path.join(root, "scripts", "start.mjs")], {
    cwd: root,
    stdio: ["ignore", output, "inherit"],
    env: {
      ...process.env,
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      APP_URL: `http://127.0.0.1:${port}`,
      MASTER_KEY: randomBytes(32).toString("base64"),
      NEXT_TELEMETRY_DISABLED: "1",
      ...env,
    },
  });
}

/**
 * Stops a server and waits until its process has exited (and so freed its port).
 * @param {import("node:child_process").ChildProcess} server @param {NodeJS.Signals} signal
 */
export async function stopServer(server, signal) {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once("exit", resolve));
  server.kill(signal);
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
 * @template {{ status: number, text: string }} R
 * @param {R} response @param {number} expected @param {string} step
 * @returns {R}
 */
export function expectStatus(response, expected, step) {
  if (response.status !== expected) throw new Error(`${step} answered ${response.status}: ${response.text}`);
  return response;
}

/**
 * A person's session: signs up and returns the cookie to send.
 * @param {Send} send @param {number} port @param {string} email
 */
export async function signedUp(send, port, email) {
  const form = { "content-type": "application/x-www-form-urlencoded", origin: `http://127.0.0.1:${port}` };
  const body = new URLSearchParams({ email, password: "correct horse battery" }).toString();
  const answer = expectStatus(await send("POST", "/auth/signup", body, form), 303, "sign-up");
  return String(answer.headers["set-cookie"]).split(";")[0];
}

/**
 * The person approves an init into a new project; true when the service confirmed it.
 * @param {Send} send @param {number} port @param {string} cookie @param {string} initId
 */
export async function approved(send, port, cookie, initId) {
  const form = { "content-type": "application/x-www-form-urlencoded", origin: `http://127.0.0.1:${port}`, cookie };
  const answer = await send("POST", `/init/${initId}/approve`, "project=new&name=Load&code_confirmed=yes", form);
  return answer.status === 303 && !String(answer.headers.location).includes("error=");
}

/**
 * Sign-up, Create Init, approval, token pickup and one link: a client ready to link and read.
 * @param {Send} send @param {number} port
 */
export async function linkedClient(send, port) {
  const cookie = await signedUp(send, port, `load-${Date.now()}@example.com`);
  const init = JSON.parse(expectStatus(await send("POST", "/api/init", JSON.stringify({ sender: "@load/cli" })), 201, "Create Init").text);
  if (!(await approved(send, port, cookie, init.id))) throw new Error("approval failed");
  const status = JSON.parse(expectStatus(await send("GET", `/api/init/${init.id}`, undefined, { authorization: `Bearer ${init.secret}` }), 200, "token pickup").text);
  const linkPath = `/api/projects/${status.project_id}/link/${randomBytes(16).toString("hex")}`;
  const link = JSON.parse(expectStatus(await send("POST", linkPath, undefined, { authorization: `Bearer ${status.access_token}` }), 200, "Create Project Link").text);
  return { projectId: status.project_id, accessToken: status.access_token, bearer: link.bearer, cookie };
}

/** p50 and p99 of a list of latencies (ms). @param {number[]} latencies */
export function percentiles(latencies) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (/** @type {number} */ q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return { p50: at(0.5), p99: at(0.99) };
}
