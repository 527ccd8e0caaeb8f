// @ts-check
// `npm test`: every suite. Installs if needed, type-checks, runs the unit and API tests, the
// end-to-end tests, the crash test and the soak on SQLite; with TEST_POSTGRES_URL (a PostgreSQL server's maintenance
// database, e.g. postgresql://postgres:secret@127.0.0.1:5432/postgres) runs the suites that
// touch the database again on PostgreSQL (the API tests, the end-to-end tests but those of
// the browser alone), then the two-instance suite. Ends with each stage's time.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ensureInstalled } from "./install.mjs";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const bin = (/** @type {string} */ name) => path.join(root, "node_modules", ".bin", name);
const postgresUrl = process.env.TEST_POSTGRES_URL?.trim();

/**
 * @param {string} title
 * @param {string} command
 * @param {string[]} args
 * @param {{ postgresql?: boolean, env?: Record<string, string> }} [options] postgresql: keep TEST_POSTGRES_URL
 * @returns {Promise<void>}
 */
async function step(title, command, args, { postgresql = false, env = {} } = {}) {
  console.log(`\n== ${title}`);
  const childEnv = { ...process.env, ...env };
  if (!postgresql) delete childEnv.TEST_POSTGRES_URL;
  const started = performance.now();
  const child = spawn(command, args, { cwd: root, stdio: "inherit", env: childEnv });
  const code = await new Promise((resolve) => child.on("close", resolve));
  timings.push([title, (performance.now() - started) / 1000]);
  if (code !== 0) {
    console.error(`\nnpm test: "${title}" failed.`);
    // A stage beside it finishes first: its output is printed, and it cleans up after itself.
    await Promise.all(besideStages);
    process.exit(code ?? 1);
  }
}

/** The stages started by besideNext, until each is done. @type {Promise<void>[]} */
const besideStages = [];

/**
 * Starts a stage beside the next ones: its output is kept and printed, with its time, when it is
 * awaited. For a stage that mostly waits (the soak's clients poll once a second).
 * @param {string} title
 * @param {string} command
 * @param {string[]} args
 * @returns {Promise<void>}
 */
function besideNext(title, command, args) {
  const childEnv = { ...process.env };
  delete childEnv.TEST_POSTGRES_URL;
  const started = performance.now();
  const child = spawn(command, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"], env: childEnv });
  /** @type {Buffer[]} */
  const output = [];
  child.stdout.on("data", (chunk) => output.push(chunk));
  child.stderr.on("data", (chunk) => output.push(chunk));
  const done = new Promise((resolve) => {
    child.on("close", (code) => {
      console.log(`\n== ${title} (ran beside the stages above)\n${Buffer.concat(output).toString()}`);
      timings.push([title, (performance.now() - started) / 1000]);
      if (code !== 0) {
        console.error(`\nnpm test: "${title}" failed.`);
        process.exit(code ?? 1);
      }
      resolve(undefined);
    });
  });
  besideStages.push(done);
  return done;
}

/** @type {[string, number][]} */
const timings = [];
const begun = performance.now();
process.on("exit", () => {
  const seconds = (/** @type {number} */ s) => `${Math.round(s)} s`.padStart(7);
  console.log(`\nnpm test: stage times\n${timings.map(([title, s]) => `${seconds(s)}  ${title}`).join("\n")}\n${seconds((performance.now() - begun) / 1000)}  in all`);
});

ensureInstalled();
await step("type check", bin("tsc"), ["-p", "."]);
await step("unit and API tests on SQLite", bin("vitest"), ["run"]);
await step("production build", bin("next"), ["build"], { env: { NODE_ENV: "production" } });
await step("end-to-end tests on SQLite", bin("playwright"), ["test"]);
await step("crash test: SIGKILL under load, three rounds", process.execPath, ["tests/load/crash-test.mjs"]);
await step("workers: a killed worker is replaced, two workers write at once", process.execPath, ["tests/load/workers-test.mjs"]);
await step("operations: start-up lines, JSON logs, request ids, metrics of both workers", process.execPath, ["tests/load/operations-test.mjs"]);
const soak = "soak: 60 s of polling clients and links";
if (postgresUrl) {
  // The soak's 50 requests a second leave the cores to the PostgreSQL API tests beside it.
  const soaked = besideNext(soak, process.execPath, ["tests/load/soak.mjs"]);
  await step("API tests on PostgreSQL", bin("vitest"), ["run", "tests/api"], { postgresql: true });
  await soaked;
  await step("end-to-end tests on PostgreSQL (all but those of the browser alone)", bin("playwright"), ["test"], { postgresql: true });
  await step("two instances on one PostgreSQL database", bin("playwright"), ["test", "--config", "playwright.multi.config.ts"], { postgresql: true });
  console.log("\nnpm test: all suites passed, on SQLite and on PostgreSQL.");
} else {
  await step(soak, process.execPath, ["tests/load/soak.mjs"]);
  console.log("\nnpm test: all suites passed on SQLite. Set TEST_POSTGRES_URL to run them on PostgreSQL and the two-instance suite too (docs/testing.md).");
}
