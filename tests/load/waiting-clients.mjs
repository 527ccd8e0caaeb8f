// @ts-check
// A share of the waiting benchmark's clients (tests/load/bench-waiting-at-scale.mjs), in a process
// of its own: a process may hold at most 20,000 open files here, so 100,000 clients take several.
// Each client waits on its own init with `Prefer: wait` (or follows its event stream), from one of
// the loopback addresses it is given, and asks again at once whenever the answer is still pending
// (the stream ended without a final event), as the CLI (an EventSource) does. The parent
// starts it over IPC and hears, as they happen, every final answer (its time on the clock all the
// processes share) and, every second, how many requests are waiting.
import http from "node:http";

/** @typedef {{ type: "start", port: number, ids: string[], addresses: string[], arrivalMs: number, wait: number, stream: boolean }} Start */

/** How requests ended besides their final answer, and how long connections took to open. */
const tally = /** @type {Record<string, number>} */ ({});
/** @param {string} ending */
const count = (ending) => (tally[ending] = (tally[ending] ?? 0) + 1);
/** @type {number[]} */
const connectMs = [];
let inFlight = 0;
let stopping = false;
let stoppedAt = 0;
const now = () => performance.timeOrigin + performance.now();
/** @param {unknown} message */
const tell = (message) => process.send?.(message);

/** @param {Start} start */
function run({ port, ids, addresses, arrivalMs, wait, stream }) {
  const agents = addresses.map((localAddress) => new http.Agent({ keepAlive: true, maxSockets: Infinity, localAddress }));
  /** @param {string} id @param {http.Agent} agent */
  const ask = (id, agent) => {
    if (stopping) return;
    inFlight += 1;
    const sent = now();
    const target = stream ? { path: `/api/init/${id}/events`, headers: {} } : { path: `/api/init/${id}`, headers: { prefer: `wait=${wait}` } };
    const request = http.request({ host: "127.0.0.1", port, agent, ...target }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => (text += chunk));
      response.on("end", () => {
        inFlight -= 1;
        if (stopping && inFlight === 0) stoppedAt = now();
        if (response.statusCode !== 200) {
          count(`status ${response.statusCode}`);
          setTimeout(() => ask(id, agent), 1000);
          return;
        }
        const status = stream ? (/id: (done|denied|expired)\n/.exec(text)?.[1] ?? "pending") : JSON.parse(text).status;
        if (status !== "pending") {
          tell({ type: "answer", id, at: now(), status });
          return;
        }
        // Held to its end, or answered at once as a poll (the room full): the latter is not waiting.
        if (!stream && (response.headers["preference-applied"] === undefined || now() - sent < (wait - 1) * 1000)) count("not held");
        else count("wait ended");
        if (!stopping) setImmediate(() => ask(id, agent));
      });
    });
    request.on("socket", (socket) => {
      if (!socket.connecting) return;
      const opening = now();
      socket.once("connect", () => connectMs.push(now() - opening));
    });
    request.on("error", (error) => {
      inFlight -= 1;
      if (stopping && inFlight === 0) stoppedAt = now();
      count(/** @type {NodeJS.ErrnoException} */ (error).code ?? error.message);
      setTimeout(() => ask(id, agent), 1000);
    });
    request.end();
  };
  ids.forEach((id, index) => setTimeout(() => ask(id, agents[index % agents.length]), Math.random() * arrivalMs));
  setInterval(() => {
    tell({ type: "status", inFlight, tally, connectMs: connectMs.splice(0), stoppedAt });
  }, 1000);
}

process.on("message", (/** @type {{ type: string }} */ message) => {
  if (message.type === "start") run(/** @type {Start} */ (message));
  if (message.type === "stopping") {
    stopping = true;
    if (inFlight === 0) stoppedAt = now();
  }
  if (message.type === "exit") process.exit(0);
});
