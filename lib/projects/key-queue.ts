import type { Config } from "../config";
import { processWide } from "../process-wide";
import { logger } from "../../server/logger.mjs";
import { reportMetric } from "../../server/metrics.mjs";
import { generateOnThread, type RsaKeyPair } from "./key-threads";
import { pregeneratedKeyPair } from "./test-keys";

// Who gets the next RSA key pair of this process. Generating one takes a second or more of a
// core, so one account linking many projects must not make anyone else wait:
// - a reserve of ready pairs (PROJECT_KEY_RESERVE) hands a project its key at once when it is
//   first needed (its first link, its page; never its approval); each pair taken is replaced
//   by a generation charged to the account that took it;
// - each account has at most PROJECT_KEY_QUEUE_PER_ACCOUNT generations queued or running; past
//   that it gets nothing now (a link is answered 503, an open project page asks again);
// - generations run on PROJECT_KEY_THREADS worker threads and are served in fair turn across
//   accounts (start-time fair queueing): an account that was just served waits behind every
//   account that was not, however long its own backlog.

const RSA_MODULUS_BITS = 4096;

/** The account that fills the reserve when nobody's take is being replaced (at start). */
const RESERVE_FILL = "(reserve)";

type Job = { account: string; start: number; order: number; deliver: (pair: Promise<RsaKeyPair>) => void };

type QueueState = {
  queued: Job[];
  /** Generations queued or running per account; an account with none is not listed. */
  outstanding: Map<string, number>;
  /** The virtual finish time of each listed account's last job. */
  lastFinish: Map<string, number>;
  virtualTime: number;
  arrivals: number;
  running: number;
  ready: RsaKeyPair[];
  /** Generations under way whose pair goes to the reserve. */
  refilling: number;
  /** Generations started since the process began: the key work done (tests, docs/benchmark.md). */
  started: number;
};

const state = processWide<QueueState>("key-queue", () => ({
  queued: [],
  outstanding: new Map(),
  lastFinish: new Map(),
  virtualTime: 0,
  arrivals: 0,
  running: 0,
  ready: [],
  refilling: 0,
  started: 0,
}));
const { queued, outstanding, lastFinish, ready } = state;
reportMetric("projectKeys", () => ({ ready: ready.length, generating: state.running, queued: queued.length }));

function nextJob(): Job | undefined {
  let best = -1;
  for (let at = 0; at < queued.length; at++) {
    const job = queued[at];
    if (best === -1 || job.start < queued[best].start || (job.start === queued[best].start && job.order < queued[best].order)) best = at;
  }
  if (best === -1) return undefined;
  const [job] = queued.splice(best, 1);
  state.virtualTime = job.start;
  return job;
}

function finished(account: string): void {
  const left = (outstanding.get(account) ?? 1) - 1;
  if (left > 0) outstanding.set(account, left);
  else {
    outstanding.delete(account);
    lastFinish.delete(account);
  }
}

/** Generations started in this process so far, and those running or queued now. */
export function keyWork(): { started: number; generating: number; queued: number } {
  return { started: state.started, generating: state.running, queued: queued.length };
}

function pump(cfg: Config): void {
  while (state.running < cfg.projectKeys.threads) {
    const job = nextJob();
    if (job === undefined) return;
    state.running += 1;
    state.started += 1;
    let pair: Promise<RsaKeyPair>;
    try {
      const pregenerated = pregeneratedKeyPair(cfg);
      pair = pregenerated === undefined ? generateOnThread(RSA_MODULUS_BITS) : Promise.resolve(pregenerated);
    } catch (error) {
      // A thread that cannot even start (out of memory, say) fails this job, not the slot.
      pair = Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    job.deliver(pair);
    void pair
      .catch(() => undefined)
      .then(() => {
        state.running -= 1;
        finished(job.account);
        pump(cfg);
      });
  }
}

function enqueue(cfg: Config, account: string, deliver: Job["deliver"]): void {
  const start = Math.max(state.virtualTime, lastFinish.get(account) ?? state.virtualTime);
  lastFinish.set(account, start + 1);
  outstanding.set(account, (outstanding.get(account) ?? 0) + 1);
  queued.push({ account, start, order: state.arrivals++, deliver });
  pump(cfg);
}

/** Generates a pair for the reserve, charged to `account`. */
function refill(cfg: Config, account: string): void {
  state.refilling += 1;
  enqueue(cfg, account, (pair) => {
    pair.then(
      (generated) => {
        state.refilling -= 1;
        if (ready.length < cfg.projectKeys.reserve) ready.push(generated);
      },
      (error: unknown) => {
        state.refilling -= 1;
        logger().error({ err: error }, "project key generation failed");
      },
    );
  });
}

/** Starts filling the reserve up to its size; runs at start and whenever a pair is taken. */
export function fillKeyReserve(cfg: Config): void {
  const missing = cfg.projectKeys.reserve - ready.length - state.refilling;
  for (let i = 0; i < missing; i++) refill(cfg, RESERVE_FILL);
}

/**
 * A key pair for a project of `account` that needs one now: from the reserve at once, or generated in its
 * turn. null when the account already has as many generations outstanding as it may.
 */
export function takeKeyPair(cfg: Config, account: string): Promise<RsaKeyPair> | null {
  if ((outstanding.get(account) ?? 0) >= cfg.projectKeys.perAccount) return null;
  const pair = ready.pop();
  if (pair !== undefined) {
    refill(cfg, account);
    return Promise.resolve(pair);
  }
  const generated = new Promise<RsaKeyPair>((resolve, reject) => enqueue(cfg, account, (pair) => pair.then(resolve, reject)));
  // After the account's own request, so that it goes first.
  fillKeyReserve(cfg);
  return generated;
}

/** Gives back a pair that was not used (another instance stored the project's key first). */
export function returnKeyPair(cfg: Config, pair: RsaKeyPair): void {
  if (ready.length < cfg.projectKeys.reserve) ready.push(pair);
}
