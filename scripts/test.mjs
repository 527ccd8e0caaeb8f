// @ts-check
// `npm test`: every suite. Installs if needed, type-checks, runs the unit and API tests, the
// end-to-end tests, the crash test and the soak on SQLite; with TEST_POSTGRES_URL (a PostgreSQL server's maintenance
// database, e.g. postgresql://postgres:secret@127.0.0.1:5432/postgres) runs the suites that
// touch the database again on PostgreSQL (the API tests, the end-to-end tests but those of
// presentation alone), then the two-instance suite. Ends with each stage's time.
import { spawnSync } from "node:child_process";
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
 */
function step(title, command, args, { postgresql = false, env = {} } = {}) {
  console.log(`\n== ${title}`);
  const childEnv = { ...process.env, ...env };
  if (!postgresql) delete childEnv.TEST_POSTGRES_URL;
  const started = performance.now();
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: childEnv });
  timings.push([title, (performance.now() - started) / 1000]);
  if (result.status !== 0) {
    console.error(`\nnpm test: "${title}" failed.`);
    process.exit(result.status ?? 1);
  }
}

/** @type {[string, number][]} */
const timings = [];
const begun = performance.now();
process.on("exit", () => {
  const seconds = (/** @type {number} */ s) => `${Math.round(s)} s`.padStart(7);
  console.log(`\nnpm test: stage times\n${timings.map(([title, s]) => `${seconds(s)}  ${title}`).join("\n")}\n${seconds((performance.now() - begun) / 1000)}  in all`);
});

ensureInstalled();
step("type check", bin("tsc"), ["-p", "."]);
step("unit and API tests on SQLite", bin("vitest"), ["run"]);
step("production build", bin("next"), ["build"], { env: { NODE_ENV: "production" } });
step("end-to-end tests on SQLite", bin("playwright"), ["test"]);
step("crash test: SIGKILL under load, three rounds", process.execPath, ["tests/load/crash-test.mjs"]);
step("workers: a killed worker is replaced, two workers write at once", process.execPath, ["tests/load/workers-test.mjs"]);
step("operations: start-up lines, JSON logs, request ids, metrics of both workers", process.execPath, ["tests/load/operations-test.mjs"]);
step("soak: 60 s of polling clients and links", process.execPath, ["tests/load/soak.mjs"]);
if (postgresUrl) {
  step("API tests on PostgreSQL", bin("vitest"), ["run", "tests/api"], { postgresql: true });
  step("end-to-end tests on PostgreSQL (all but accessibility and docs)", bin("playwright"), ["test"], { postgresql: true });
  step("two instances on one PostgreSQL database", bin("playwright"), ["test", "--config", "playwright.multi.config.ts"], { postgresql: true });
  console.log("\nnpm test: all suites passed, on SQLite and on PostgreSQL.");
} else {
  console.log("\nnpm test: all suites passed on SQLite. Set TEST_POSTGRES_URL to run them on PostgreSQL and the two-instance suite too (docs/testing.md).");
}
