// @ts-check
// Project keys, made on first need. Starts the production build on a scratch
// database and lets it settle (its reserve of ready keys fills at start). First, what approvals
// into new projects cost: the server's CPU while one account approves 8 inits into new projects,
// until it is idle again (keys are made on first need, so none should be), then the same for the
// first link of one of them (one key: the reserve's pair replaced). Then keys under contention:
// how long an unrelated person's first link takes while another account approves 20 new
// projects and links them all. Clients honour 503 key_not_ready's Retry-After, as a real client
// would. Measures, never asserts. `node tests/load/bench-keys.mjs`, or benchKeys() from bench.mjs.
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { approvedIntoNewProject, createInit, newEmail, pickUpToken, randomIv, signUp } from "../helpers/journey.mjs";
import { client, largestRssMiB, processTree, root, siteOf, startServer, stopServer, waitUntilUp } from "./load-tools.mjs";

const PORT = Number(process.env.BENCH_KEYS_PORT || 3400);
const NEW_PROJECTS = 20;
const MEASURED_APPROVALS = 8;
const TICKS_PER_SECOND = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }));
const database = path.join(root, ".cache", "bench-keys", "bench.db");

/** @typedef {import("../helpers/journey.mjs").Send} Send */

/** CPU time used so far by the server's processes, in clock ticks. @param {number} pid */
function cpuTicks(pid) {
  let ticks = 0;
  for (const member of processTree(pid)) {
    try {
      const stat = readFileSync(`/proc/${member}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // the process ended meanwhile
    }
  }
  return ticks;
}

/** Waits until the server has used (almost) no CPU for a whole second: start-up work, the key reserve included, is done. @param {number} pid */
async function settled(pid) {
  for (let second = 0; second < 120; second++) {
    const before = cpuTicks(pid);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    if (cpuTicks(pid) - before <= 5) return;
  }
}

/**
 * The server's CPU seconds from `work` until it is idle again (background work included; the
 * last idle second's few ticks too).
 * @param {number} pid @param {() => Promise<void>} work
 */
async function cpuSecondsOf(pid, work) {
  const before = cpuTicks(pid);
  await work();
  await settled(pid);
  return (cpuTicks(pid) - before) / TICKS_PER_SECOND;
}

/**
 * `send`, once more when the server closed a kept-alive socket just as it was reused (the
 * requests retried here, a link with the same iv and a token pickup, are safe to repeat).
 * @param {Send} send @returns {Send}
 */
const retryingReset = (send) => async (...request) => {
  try {
    return await send(...request);
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code !== "ECONNRESET") throw error;
    return send(...request);
  }
};

/**
 * Create Project Link until it succeeds, waiting as each 503's Retry-After says.
 * @param {Send} send @param {string} projectId @param {string} accessToken
 */
async function linkWithRetries(send, projectId, accessToken) {
  const iv = randomIv();
  send = retryingReset(send);
  let refusals = 0;
  for (;;) {
    const answer = await send("POST", `/api/projects/${projectId}/link/${iv}`, undefined, { authorization: `Bearer ${accessToken}` });
    if (answer.status === 200) return { refusals };
    if (answer.status !== 503) throw new Error(`Create Project Link answered ${answer.status}: ${answer.text}`);
    refusals += 1;
    await new Promise((resolve) => setTimeout(resolve, Number(answer.headers["retry-after"] ?? "1") * 1000));
  }
}

/** @returns {Promise<[string, string][]>} */
export async function benchKeys() {
  rmSync(path.dirname(database), { recursive: true, force: true });
  const site = siteOf(PORT);
  const setup = client(PORT);
  const { send } = setup;
  const server = startServer(PORT, {
    DATABASE_URL: `file:${database}`,
    CREATE_INIT_PER_MINUTE: "1000000",
    SIGN_IN_PER_ADDRESS_PER_MINUTE: "1000000",
    LINKS_PER_TOKEN_PER_MINUTE: "1000000",
    NEW_PROJECTS_PER_ACCOUNT_PER_HOUR: "1000000",
    NEW_PROJECTS_PER_ADDRESS_PER_HOUR: "1000000",
  });
  const pid = /** @type {number} */ (server.pid);
  try {
    await waitUntilUp(send);
    const busy = await signUp(send, { site, email: newEmail("busy") });
    const busyInits = [];
    for (let i = 0; i < NEW_PROJECTS; i++) busyInits.push(await createInit(send, { sender: "@busy/cli" }));
    const unrelated = await signUp(send, { site, email: newEmail("unrelated") });
    const unrelatedInit = await createInit(send, { sender: "@unrelated/cli" });
    const measured = await signUp(send, { site, email: newEmail("measured") });
    /** @type {import("../helpers/journey.mjs").CreatedInit[]} */
    const measuredInits = [];
    for (let i = 0; i < MEASURED_APPROVALS; i++) measuredInits.push(await createInit(send, { sender: "@measured/cli" }));
    await settled(pid);
    const approvals = await cpuSecondsOf(pid, async () => {
      for (const [i, init] of measuredInits.entries()) {
        if (!(await approvedIntoNewProject(send, site, measured.cookie, init.id, `Measured ${i}`))) throw new Error("measured approval refused");
      }
    });
    const firstLink = await cpuSecondsOf(pid, async () => {
      const pickup = await pickUpToken(send, measuredInits[0]);
      await linkWithRetries(send, pickup.project_id, pickup.access_token);
    });
    setup.close();
    return [
      [`${MEASURED_APPROVALS} approvals into new projects: server CPU until idle`, `${approvals.toFixed(2)} s`],
      ["the first link of one of them (its key): server CPU until idle", `${firstLink.toFixed(2)} s`],
      ...(await contention(pid, site, busy, busyInits, unrelated, unrelatedInit)),
    ];
  } finally {
    await stopServer(server, "SIGTERM");
    setup.close();
  }
}

/**
 * The measured part, on fresh connections (the server has closed the idle ones).
 * @param {number} pid @param {string} site
 * @param {import("../helpers/journey.mjs").Person} busy @param {import("../helpers/journey.mjs").CreatedInit[]} busyInits
 * @param {import("../helpers/journey.mjs").Person} unrelated @param {import("../helpers/journey.mjs").CreatedInit} unrelatedInit
 * @returns {Promise<[string, string][]>}
 */
async function contention(pid, site, busy, busyInits, unrelated, unrelatedInit) {
  const { send, close } = client(PORT);
  try {
    const started = performance.now();
    // The busy account approves its 20 inits at once; its clients then link, retrying.
    const busyApprovals = Promise.all(busyInits.map((init, i) => approvedIntoNewProject(send, site, busy.cookie, init.id, `Busy ${i}`)));
    const busyLinks = busyApprovals.then(() =>
      Promise.all(
        busyInits.map(async (init) => {
          const pickup = await pickUpToken(retryingReset(send), init);
          return linkWithRetries(send, pickup.project_id, pickup.access_token);
        }),
      ),
    );
    // Awaited below; a failure meanwhile must not end the process before the server is stopped.
    busyLinks.catch(() => undefined);
    // Meanwhile the unrelated person approves one init; its client collects its token and links.
    const unrelatedApprovedAt = performance.now();
    if (!(await approvedIntoNewProject(send, site, unrelated.cookie, unrelatedInit.id, "Unrelated"))) throw new Error("unrelated approval refused");
    const approved = performance.now();
    const pickup = await pickUpToken(send, unrelatedInit);
    const linkStarted = performance.now();
    const unrelatedLink = await linkWithRetries(send, pickup.project_id, pickup.access_token);
    const linkEnded = performance.now();
    const busyResults = await busyLinks;
    const busyDone = performance.now();
    const rss = largestRssMiB(pid);
    return [
      ["unrelated first link while another account approves 20 new projects", `${(linkEnded - linkStarted).toFixed(0)} ms (${unrelatedLink.refusals} × 503)`],
      ["unrelated approval (answered)", `${(approved - unrelatedApprovedAt).toFixed(0)} ms`],
      ["unrelated approval → linked", `${(linkEnded - unrelatedApprovedAt).toFixed(0)} ms`],
      ["busy account: 20 new projects linked after", `${((busyDone - started) / 1000).toFixed(1)} s (${busyResults.reduce((sum, result) => sum + result.refusals, 0)} × 503, retried)`],
      ["server RSS after (largest process)", `${rss} MiB`],
    ];
  } finally {
    close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const figures = await benchKeys();
  const width = Math.max(...figures.map(([figure]) => figure.length));
  console.log("");
  for (const [figure, value] of figures) console.log(`${figure.padEnd(width)}  ${value}`);
}
