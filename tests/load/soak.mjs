// @ts-check
// `npm run test:soak`: a bounded soak against the production build. CLI clients create inits
// and poll them at their interval until they expire, while one client links itself to a
// project again and again; the sweeper deletes expired inits on a short schedule. Prints
// requests, errors (must be 0), p50/p99 latency, the largest server process RSS at start and end (growth must
// stay under SOAK_RSS_GROWTH_MIB) and the init rows over time (must stay bounded).
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { client, largestRssMiB, loadClient, percentiles, root, startServer, stopServer, waitUntilUp } from "./load-tools.mjs";

const PORT = Number(process.env.SOAK_PORT || 3220);
const SECONDS = Number(process.env.SOAK_SECONDS || 60);
const CLIS = Number(process.env.SOAK_CLIENTS || 40);
const LINKS_PER_SECOND = 10;
const RSS_GROWTH_BOUND_MIB = Number(process.env.SOAK_RSS_GROWTH_MIB || 150);
const INTERVAL_MS = 1000;
const LIFETIME_S = 10;
const RETENTION_S = 5;
const SWEEP_S = 5;
const database = path.join(root, ".cache", "soak", "soak.db");

rmSync(path.dirname(database), { recursive: true, force: true });
const { send, close } = client(PORT);
const server = startServer(PORT, {
  DATABASE_URL: `file:${database}`,
  INIT_INTERVAL_MS: String(INTERVAL_MS),
  INIT_LIFETIME_SECONDS: String(LIFETIME_S),
  INIT_RETENTION_SECONDS: String(RETENTION_S),
  SWEEP_INTERVAL_SECONDS: String(SWEEP_S),
  CREATE_INIT_PER_MINUTE: "1000000",
  LINKS_PER_TOKEN_PER_MINUTE: "1000000",
  PICKUPS_PER_INIT_PER_MINUTE: "1000000",
});
const serverPid = /** @type {number} */ (server.pid);

/** @type {number[]} */
const latencies = [];
/** @type {string[]} */
const errors = [];
/** @param {string} method @param {string} urlPath @param {number[]} expected @param {string} [body] @param {Record<string, string>} [headers] */
async function timed(method, urlPath, expected, body, headers) {
  const begin = performance.now();
  const answer = await send(method, urlPath, body, headers);
  latencies.push(performance.now() - begin);
  if (!expected.includes(answer.status)) errors.push(`${method} ${urlPath.split("/").slice(0, 3).join("/")}: ${answer.status} ${answer.text.slice(0, 120)}`);
  return answer;
}

const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

try {
  await waitUntilUp(send);
  const linked = await loadClient(send, PORT);
  const rssAtStart = largestRssMiB(serverPid);
  const deadline = performance.now() + SECONDS * 1000;
  let created = 0;

  // A CLI: create an init, poll it at its interval until it is no longer pending, start again.
  const cli = async (/** @type {number} */ number) => {
    await sleep(Math.random() * INTERVAL_MS);
    while (performance.now() < deadline) {
      const answer = await timed("POST", "/api/init", [201], JSON.stringify({ sender: `@soak/cli-${number}` }));
      if (answer.status !== 201) continue;
      created += 1;
      const init = JSON.parse(answer.text);
      for (let status = "pending"; status === "pending" && performance.now() < deadline; ) {
        await sleep(init.interval);
        const polled = await timed("GET", `/api/init/${init.id}`, [200], undefined, { "user-agent": `soak-cli-${number}` });
        status = polled.status === 200 ? JSON.parse(polled.text).status : "error";
      }
    }
  };
  const linker = async () => {
    while (performance.now() < deadline) {
      await timed("POST", `/api/projects/${linked.projectId}/link/${randomBytes(16).toString("hex")}`, [200], undefined, { authorization: `Bearer ${linked.accessToken}` });
      await sleep(1000 / LINKS_PER_SECOND);
    }
  };
  /** @type {{ second: number, inits: number, rss: number }[]} */
  const samples = [];
  const file = new Database(database, { readonly: true });
  const count = file.prepare('SELECT count(*) AS n FROM "Init"');
  const sampler = async () => {
    const started = performance.now();
    while (performance.now() < deadline) {
      await sleep(5000);
      samples.push({ second: Math.round((performance.now() - started) / 1000), inits: Number(/** @type {{ n: number }} */ (count.get()).n), rss: largestRssMiB(serverPid) });
    }
  };
  await Promise.all([...Array.from({ length: CLIS }, (_unused, number) => cli(number)), linker(), sampler()]);
  file.close();

  const rssAtEnd = largestRssMiB(serverPid);
  const { p50, p99 } = percentiles(latencies);
  // Inits live LIFETIME_S, stay RETENTION_S more, and are swept within SWEEP_S: at most that
  // many seconds of creations exist at once (twice that, for slack).
  const rowBound = Math.ceil((created / SECONDS) * (LIFETIME_S + RETENTION_S + SWEEP_S) * 2);
  const maxRows = Math.max(0, ...samples.map((sample) => sample.inits));
  console.log(`\nsoak: ${SECONDS} s, ${CLIS} CLIs polling every ${INTERVAL_MS} ms, ${LINKS_PER_SECOND} links/s`);
  console.log(`requests ${latencies.length}, errors ${errors.length}, p50 ${p50.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms`);
  console.log(`inits created ${created}; init rows every 5 s: ${samples.map((sample) => sample.inits).join(", ")} (bound ${rowBound})`);
  console.log(`largest server process RSS: start ${rssAtStart} MiB, end ${rssAtEnd} MiB, growth ${rssAtEnd - rssAtStart} MiB (bound ${RSS_GROWTH_BOUND_MIB} MiB); every 5 s: ${samples.map((sample) => sample.rss).join(", ")}`);
  for (const error of errors.slice(0, 10)) console.log(`  error: ${error}`);
  const failures = [
    errors.length > 0 ? `${errors.length} errors` : "",
    rssAtEnd - rssAtStart > RSS_GROWTH_BOUND_MIB ? "RSS grew past its bound" : "",
    maxRows > rowBound ? "init rows grew past their bound" : "",
  ].filter(Boolean);
  if (failures.length > 0) {
    console.error(`soak failed: ${failures.join("; ")}`);
    process.exitCode = 1;
  }
} finally {
  await stopServer(server, "SIGTERM");
  close();
}
