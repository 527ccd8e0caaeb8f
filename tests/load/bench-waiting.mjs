// @ts-check
// The waiting benchmark: many clients wait for their init's outcome at once on one machine, with
// `Prefer: wait` (and a share of them on the event stream), while a person approves some of
// those inits one after the other. Reports the delay from each approval (its request sent) to
// the answer of the client waiting on that init, p50 and p99, and the server's RSS with every
// client waiting. Measures, never asserts. `node tests/load/bench-waiting.mjs` runs it alone;
// tests/load/bench.mjs calls benchWaiting(). Needs a production build.
import { setMaxListeners } from "node:events";
import http from "node:http";
import { rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { approvedIntoNewProject, createInit, newEmail, signUp } from "../helpers/journey.mjs";
import { client, largestRssMiB, percentiles, root, siteOf, startServer, stopServer, waitUntilUp } from "./load-tools.mjs";

const PORT = Number(process.env.BENCH_WAITING_PORT || 3500);
const CLIENTS = Number(process.env.BENCH_WAITING_CLIENTS || 5000);
const APPROVALS = Number(process.env.BENCH_WAITING_APPROVALS || 200);
/** One client in this many follows the event stream instead of holding a request. */
const STREAM_EVERY = Number(process.env.BENCH_WAITING_STREAM_EVERY || 10);
/** The clients start over this many seconds (the held requests' wait). */
const ARRIVAL_SECONDS = Number(process.env.BENCH_WAITING_ARRIVAL_SECONDS || 60);
const INTERVAL_MS = 5000;
/**
 * The clients' loopback source addresses: one address may hold a tenth of a process's waiting
 * room (WAITING_SHARE_PER_ADDRESS), so 5,000 clients from one address would mostly poll.
 */
const ADDRESSES = Array.from({ length: 8 }, (_, n) => `127.0.5.${n + 1}`);

/**
 * One client's wait: a request held with Prefer: wait=60 (again while the init is pending), or
 * the event stream, until it sees the init decided. Resolves with the time of that answer.
 * @param {http.Agent} agent @param {string} id @param {boolean} stream @param {AbortSignal} signal
 * @returns {Promise<number>}
 */
function waitFor(agent, id, stream, signal) {
  return new Promise((resolve) => {
    const ask = () => {
      const request = http.request(
        {
          host: "127.0.0.1",
          port: PORT,
          agent,
          path: stream ? `/api/init/${id}/events` : `/api/init/${id}`,
          headers: stream ? { accept: "text/event-stream" } : { prefer: "wait=60", "user-agent": `waiter-${id}` },
          signal,
        },
        (response) => {
          let text = "";
          response.setEncoding("utf8");
          response.on("data", (chunk) => {
            text += chunk;
            if (stream && /"status":"(done|denied|expired)"/.test(text)) {
              resolve(performance.now());
              response.destroy();
            }
          });
          response.on("end", () => {
            tally(`status ${response.statusCode}`);
            if (!stream && response.statusCode === 200 && JSON.parse(text).status !== "pending") resolve(performance.now());
            // Not held (the room or the address's share full: no Preference-Applied) or slowed
            // down: asked again after the interval, as a client that polls would.
            else if (!signal.aborted) setTimeout(ask, response.statusCode === 429 || (!stream && !response.headers["preference-applied"]) ? INTERVAL_MS : 100);
          });
          response.on("error", () => undefined);
        },
      );
      // A connection refused in a burst (the listen backlog is full) is tried again, as a client would.
      request.on("error", (error) => {
        tally(/** @type {NodeJS.ErrnoException} */ (error).code ?? error.message);
        if (!signal.aborted) setTimeout(ask, 100);
      });
      request.end();
    };
    ask();
  });
}

/** How the clients' requests ended besides their answer, for the progress lines. @type {Map<string, number>} */
const endings = new Map();
/** @param {string} ending */
const tally = (ending) => endings.set(ending, (endings.get(ending) ?? 0) + 1);

/** @param {string} line */
const progress = (line) => process.stderr.write(`bench-waiting: ${line} ${JSON.stringify(Object.fromEntries(endings))}\n`);

/** @returns {Promise<[string, string][]>} the figures, as [figure, value] pairs */
export async function benchWaiting() {
  const database = path.join(root, ".cache", "bench-waiting", "bench.db");
  rmSync(path.dirname(database), { recursive: true, force: true });
  const server = startServer(PORT, {
    DATABASE_URL: `file:${database}`,
    CREATE_INIT_PER_MINUTE: "1000000",
    // A held request is a poll: the clients' re-asks after a 60 s wait are always on time.
    INIT_INTERVAL_MS: String(INTERVAL_MS),
  });
  const serverPid = /** @type {number} */ (server.pid);
  const { send, close } = client(PORT);
  const agents = ADDRESSES.map((localAddress) => new http.Agent({ keepAlive: true, maxSockets: Infinity, localAddress }));
  const stop = new AbortController();
  // Every client's request listens to it.
  setMaxListeners(0, stop.signal);
  try {
    await waitUntilUp(send);
    const site = siteOf(PORT);
    const person = await signUp(send, { site, email: newEmail("bench-waiting") });
    /** @type {string[]} */
    const ids = [];
    for (let i = 0; i < CLIENTS; i += 50) {
      const batch = await Promise.all(Array.from({ length: Math.min(50, CLIENTS - i) }, () => createInit(send, { sender: "@bench/waiting" })));
      ids.push(...batch.map((init) => init.id));
    }
    progress(`${ids.length} inits created`);
    const rssBefore = largestRssMiB(serverPid);
    // Clients arrive at random moments over one wait's length, as they do in life, so their
    // 60 s waits end (and are asked again) spread out rather than all in the same second.
    /** @type {Promise<number>[]} */
    const answers = ids.map(
      (id, index) =>
        new Promise((resolve) => {
          setTimeout(() => resolve(waitFor(agents[index % agents.length], id, index % STREAM_EVERY === 0, stop.signal)), Math.random() * ARRIVAL_SECONDS * 1000);
        }),
    );
    await new Promise((resolve) => setTimeout(resolve, (ARRIVAL_SECONDS + 5) * 1000));
    const rssWaiting = largestRssMiB(serverPid);
    progress(`${CLIENTS} clients waiting`);
    // The first approval makes the project (and its key); the others approve into it, so the
    // figures are the notices' and not the key generation's.
    const first = ids[0];
    if (!(await approvedIntoNewProject(send, site, person.cookie, first, "Bench"))) throw new Error("the first approval was refused");
    await answers[0];
    /** @type {number[]} */
    const delays = [];
    const step = Math.max(1, Math.floor(CLIENTS / APPROVALS));
    for (let index = step; index < CLIENTS && delays.length < APPROVALS; index += step) {
      const fields = new URLSearchParams({ project: first, code_confirmed: "yes" }).toString();
      const sent = performance.now();
      const approval = await send("POST", `/init/${ids[index]}/approve`, fields, { "content-type": "application/x-www-form-urlencoded", origin: site, cookie: person.cookie });
      if (approval.status !== 303 || approval.headers.location !== `${site}/init/${ids[index]}`) throw new Error(`approval refused: ${approval.headers.location}`);
      delays.push((await answers[index]) - sent);
      if (delays.length % 50 === 0) progress(`${delays.length} approvals`);
    }
    const rssAfter = largestRssMiB(serverPid);
    const { p50, p99 } = percentiles(delays);
    const streams = Math.ceil(CLIENTS / STREAM_EVERY);
    return [
      ["waiting clients", `${CLIENTS} (${CLIENTS - streams} Prefer: wait, ${streams} event stream)`],
      ["approvals", String(delays.length)],
      ["approval → waiting client answered, p50", `${p50.toFixed(1)} ms`],
      ["approval → waiting client answered, p99", `${p99.toFixed(1)} ms`],
      ["server RSS: idle, all waiting, after", `${rssBefore} / ${rssWaiting} / ${rssAfter} MiB`],
    ];
  } finally {
    stop.abort();
    for (const agent of agents) agent.destroy();
    close();
    await stopServer(server, "SIGTERM");
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const [figure, value] of await benchWaiting()) console.log(`${figure.padEnd(42)} ${value}`);
}
