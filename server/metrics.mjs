// @ts-check
// Prometheus metrics (prom-client), served at GET /api/metrics. Each process counts its own:
// server.mjs every request (by route pattern, server/route-pattern.mjs), the app the
// clients it holds waiting and its project key pool; prom-client adds the process's own
// (CPU, memory, event loop, handles). Under the primary of `npm start` a scrape must describe the
// whole server, whichever worker it reaches: that worker asks the primary, which collects every
// worker's metrics and sums them (prom-client's AggregatorRegistry, server/primary.mjs).
import cluster from "node:cluster";
import { randomUUID } from "node:crypto";
import client from "prom-client";
import { processWide } from "./process-wide.mjs";

/** The IPC message type of a worker's request for the whole server's metrics, and of the primary's answer. */
export const METRICS_MESSAGE = "initlink:metrics";
const PRIMARY_ANSWER_MS = 10_000;

/**
 * What the app reports, read at each scrape. Each source is set by the module that owns the
 * state (lib/init/init-events.ts, lib/projects/key-queue.ts); until then it reads zero.
 * @typedef {{
 *   waitingClients: () => { preferWait: number, eventStream: number },
 *   projectKeys: () => { ready: number, generating: number, queued: number },
 * }} Sources
 */

/** @returns {Sources} */
const zeroSources = () => ({
  waitingClients: () => ({ preferWait: 0, eventStream: 0 }),
  projectKeys: () => ({ ready: 0, generating: 0, queued: 0 }),
});

function createMetrics() {
  const register = client.register;
  client.collectDefaultMetrics({ register });
  const sources = zeroSources();
  const requests = new client.Counter({
    name: "initlink_http_requests_total",
    help: "HTTP requests answered, by method, route pattern and status.",
    labelNames: ["method", "route", "status"],
    registers: [register],
  });
  const duration = new client.Histogram({
    name: "initlink_http_request_duration_seconds",
    help: "Time from a request's arrival to the end of its answer, by method and route pattern (held waits and event streams included).",
    labelNames: ["method", "route"],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [register],
  });
  new client.Gauge({
    name: "initlink_waiting_clients",
    help: "Requests held open on an init: kind prefer_wait (a status request with Prefer: wait) or event_stream.",
    labelNames: ["kind"],
    registers: [register],
    collect() {
      const waiting = sources.waitingClients();
      this.set({ kind: "prefer_wait" }, waiting.preferWait);
      this.set({ kind: "event_stream" }, waiting.eventStream);
    },
  });
  new client.Gauge({
    name: "initlink_project_key_pool",
    help: "Project key pairs (RSA-4096): state ready (the reserve, PROJECT_KEY_RESERVE per process), generating, or queued.",
    labelNames: ["state"],
    registers: [register],
    collect() {
      const keys = sources.projectKeys();
      this.set({ state: "ready" }, keys.ready);
      this.set({ state: "generating" }, keys.generating);
      this.set({ state: "queued" }, keys.queued);
    },
  });
  /** @type {Map<string, { resolve: (text: string) => void, reject: (error: Error) => void }>} */
  const asked = new Map();
  if (cluster.isWorker) {
    // A worker answers the primary's collection only once an AggregatorRegistry exists in it.
    new client.AggregatorRegistry();
    process.on("message", (/** @type {unknown} */ message) => {
      if (!isMetricsAnswer(message)) return;
      const waiting = asked.get(message.id);
      asked.delete(message.id);
      if (message.error === undefined) waiting?.resolve(message.text ?? "");
      else waiting?.reject(new Error(message.error));
    });
  }
  return { register, sources, requests, duration, asked };
}

/** @typedef {{ type: string, id: string, text?: string, error?: string }} MetricsMessage */

/** @param {unknown} message @returns {message is MetricsMessage} */
export const isMetricsMessage = (message) =>
  typeof message === "object" && message !== null && /** @type {MetricsMessage} */ (message).type === METRICS_MESSAGE && typeof (/** @type {MetricsMessage} */ (message).id) === "string";

/** @param {unknown} message @returns {message is MetricsMessage} */
const isMetricsAnswer = (message) => isMetricsMessage(message) && ("text" in message || "error" in message);

/**
 * The process's metrics, made once: server.mjs and every bundle of the app that imports this
 * module share them (prom-client itself is loaded once: next.config.mjs keeps it external).
 * @returns {ReturnType<typeof createMetrics>}
 */
function metrics() {
  return processWide("metrics", createMetrics);
}

/** Makes the process's metrics now: a worker must answer the primary's collection before its first request. */
export function startMetrics() {
  metrics();
}

/** Counts one answered request. @param {string} method @param {string} route @param {number} status @param {number} seconds */
export function observeRequest(method, route, status, seconds) {
  const { requests, duration } = metrics();
  requests.inc({ method, route, status: String(status) });
  duration.observe({ method, route }, seconds);
}

/**
 * Sets what one of the app's gauges reads at each scrape.
 * @template {keyof Sources} K @param {K} name @param {Sources[K]} read
 */
export function reportMetric(name, read) {
  metrics().sources[name] = read;
}

/** The content type of the metrics text (Prometheus text format 0.0.4). */
export const METRICS_CONTENT_TYPE = client.register.contentType;

/**
 * The metrics text of the whole server: this process's, or under a primary every worker's,
 * summed by the primary.
 * @returns {Promise<string>}
 */
export async function metricsText() {
  const { register, asked } = metrics();
  if (!cluster.isWorker || process.send === undefined) return register.metrics();
  const id = randomUUID();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      asked.delete(id);
      reject(new Error("the primary did not answer the metrics request"));
    }, PRIMARY_ANSWER_MS);
    asked.set(id, {
      resolve: (text) => (clearTimeout(timer), resolve(text)),
      reject: (error) => (clearTimeout(timer), reject(error)),
    });
    process.send?.(/** @type {MetricsMessage} */ ({ type: METRICS_MESSAGE, id }));
  });
}
