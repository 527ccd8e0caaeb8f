// @ts-check
// The primary of a multi-process server (node:cluster): it serves nothing itself. It forks one
// worker per core, replaces a worker that dies (after a growing pause, so that a worker that
// dies at once does not spin), relays messages between workers, and on SIGTERM or SIGINT stops
// them gracefully before it exits. If the primary itself is killed, each worker sees its IPC
// channel close and exits at once (node:cluster does that for every worker), so no worker
// outlives it holding the database.
import cluster from "node:cluster";
import client from "prom-client";
import { logger } from "./logger.mjs";
import { isMetricsMessage, METRICS_MESSAGE } from "./metrics.mjs";
import { longestStopMs } from "./parking.mjs";

// A worker that lived less than this before it died counts as a crash in a row: the next
// replacement waits twice as long as the last one did, up to the cap.
const STABLE_MS = 10_000;
const FIRST_PAUSE_MS = 100;
const MAX_PAUSE_MS = 10_000;
// How long workers get to finish their requests on a stop before the primary exits anyway: a
// second more than the longest a worker gives itself (server/parking.mjs, stopDeadlineMs).
const STOP_MARGIN_MS = 1_000;

/**
 * Runs the primary: forks `count` workers of `script`, each started with `args` and a V8 heap of
 * `workerHeapMb` MiB, and says `ready` with `appUrl` once all of them listen.
 * @param {number} count @param {string} script @param {string[]} args @param {{ appUrl: string, workerHeapMb: number, waitingPerProcess: number }} settings
 */
export function runPrimary(count, script, args, { appUrl, workerHeapMb, waitingPerProcess }) {
  const log = logger();
  // V8 sizes its old generation from the machine's memory (a quarter of it) and lets garbage
  // pile up towards that before a full collection: a worker reached 390 MiB under load with
  // 130 MiB in use. A limit with room for what a worker needs keeps it near 220 MiB at the same
  // throughput (docs/configuration.md, WORKER_HEAP_MB).
  cluster.setupPrimary({ exec: script, args, execArgv: [...process.execArgv, `--max-old-space-size=${workerHeapMb}`] });
  // Collects every worker's metrics for a scrape (server/metrics.mjs).
  const metrics = new client.AggregatorRegistry();
  let ready = false;
  /** @type {Set<number>} the ids of the workers that listen */
  const listening = new Set();
  let stopping = false;
  let everListened = false;
  let pauseMs = 0;
  let exitCode = 0;
  /** @type {Map<number, number>} live worker id → when it was forked */
  const startedAt = new Map();

  const fork = () => {
    const worker = cluster.fork();
    startedAt.set(worker.id, Date.now());
  };

  cluster.on("listening", (worker) => {
    everListened = true;
    log.info({ worker: worker.id, worker_pid: worker.process.pid }, "worker listening");
    listening.add(worker.id);
    if (!ready && listening.size === count) {
      ready = true;
      log.info({ url: appUrl, workers: count }, `ready: open ${appUrl}`);
    }
  });

  cluster.on("exit", (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker.id) ?? 0);
    startedAt.delete(worker.id);
    listening.delete(worker.id);
    if (stopping) {
      if (startedAt.size === 0) process.exit(exitCode);
      return;
    }
    // A worker that fails before any worker ever served (a bad setting, a wrong master key)
    // would fail again: stop the whole server with its exit code, as one process would.
    if (!everListened) {
      log.error({ code, signal }, "a worker failed to start; stopping");
      stopping = true;
      exitCode = code || 1;
      for (const other of Object.values(cluster.workers ?? {})) if (other !== worker) other?.process.kill("SIGTERM");
      if (startedAt.size === 0) process.exit(exitCode);
      return;
    }
    pauseMs = lived >= STABLE_MS ? 0 : Math.min(MAX_PAUSE_MS, Math.max(FIRST_PAUSE_MS, pauseMs * 2));
    log.error({ worker: worker.id, worker_pid: worker.process.pid, code, signal, after_ms: pauseMs }, "worker died; replacing it");
    setTimeout(() => {
      if (!stopping) fork();
    }, pauseMs);
  });

  // Cross-worker messages: a worker that sends { type: "initlink:broadcast", channel, data }
  // (process.send) has the same message delivered to every other live worker (worker.send),
  // which hears it as a "message" event on process. The primary reads nothing else in it; what
  // channels exist and what they carry is the workers' business.
  cluster.on("message", (sender, message) => {
    if (isMetricsMessage(message)) {
      metrics.clusterMetrics().then(
        (text) => sender.send({ type: METRICS_MESSAGE, id: message.id, text }, () => undefined),
        (/** @type {unknown} */ error) => sender.send({ type: METRICS_MESSAGE, id: message.id, error: String(error) }, () => undefined),
      );
      return;
    }
    if (typeof message !== "object" || message === null || message.type !== "initlink:broadcast") return;
    for (const worker of Object.values(cluster.workers ?? {})) {
      // A worker that died a moment ago may still be listed: its write error is not the primary's end.
      if (worker !== undefined && worker !== sender && worker.isConnected()) worker.send(message, () => undefined);
    }
  });

  const stop = (/** @type {NodeJS.Signals} */ signal) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "stopping");
    if (startedAt.size === 0) process.exit(0);
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
    setTimeout(() => process.exit(0), longestStopMs(waitingPerProcess) + STOP_MARGIN_MS).unref();
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));

  log.info({ workers: count }, `starting ${count} workers`);
  for (let i = 0; i < count; i++) fork();
}
