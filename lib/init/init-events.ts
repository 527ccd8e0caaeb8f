import cluster from "node:cluster";
import pg from "pg";
import { config, type Config } from "../config";
import { databaseProvider } from "../database/database-url";
import { db } from "../database/db";
import { processWide } from "../process-wide";
import { logger } from "../../server/logger.mjs";
import { reportMetric } from "../../server/metrics.mjs";
import { STOPPING_EVENT } from "../../server/request-context.mjs";

// Change notices of inits, for the requests that wait on one (Prefer: wait, the event stream).
// A notice only says "this init may have changed": a woken waiter reads the row again, so a
// duplicate notice costs one read and a lost one costs nothing but time, since every wait also
// ends at its deadline (and at the init's expiry) with a read of the row.
//
// How a notice travels, from approve-init.ts and deny-init.ts after their conditional update:
// - in this process, at once, to every waiter of the init;
// - on PostgreSQL, to every process of every instance by NOTIFY; each process LISTENs on one
//   connection of its own (a session-mode connection: see docs/api.md, Waiting without polling);
// - on SQLite, to the other workers of `npm start` through the cluster primary, which relays
//   an `initlink:broadcast` message to every other worker.
//
// 5,000 waiting requests cost one Set per init waited on and one small object per waiter;
// nothing reads the database until a notice or a deadline.

const NOTIFY_CHANNEL = "initlink_init_change";
const BROADCAST_TYPE = "initlink:broadcast";
const BROADCAST_CHANNEL = "init-change";

const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 10_000;

/** What a wait ended on; "stopping": the process is stopping (server.mjs), so no wait may go on. */
export type WaitEnd = "changed" | "deadline" | "aborted" | "stopping";

/** Who watches: a status request held with Prefer: wait, or an event stream (the metrics count each). */
export type Waiter = "preferWait" | "eventStream";

/**
 * One waiter's subscription, made before it reads the row, so that a change committed after
 * that read still wakes it. A notice that arrives while it is not waiting is kept for its next wait.
 */
export class InitWatch {
  private noticed = false;
  private wake: ((end: WaitEnd) => void) | null = null;

  constructor(
    private readonly hub: Hub,
    readonly initId: string,
    readonly waiter: Waiter,
  ) {}

  notify(): void {
    if (this.wake === null) this.noticed = true;
    else this.wake("changed");
  }

  /** Ends the wait under way, if any; every later one ends at once (Hub.stopping). */
  stop(): void {
    this.wake?.("stopping");
  }

  /** Resolves at the next notice (or one kept since the last wait), at `until` (ms epoch), or when `signal` aborts. */
  next(until: number, signal: AbortSignal): Promise<WaitEnd> {
    if (signal.aborted) return Promise.resolve("aborted");
    if (this.hub.stopping) return Promise.resolve("stopping");
    if (this.noticed) {
      this.noticed = false;
      return Promise.resolve("changed");
    }
    return new Promise((resolve) => {
      const finish = (end: WaitEnd) => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        this.wake = null;
        resolve(end);
      };
      const onAbort = () => finish("aborted");
      const timer = setTimeout(() => finish("deadline"), Math.max(0, until - Date.now()));
      signal.addEventListener("abort", onAbort, { once: true });
      this.wake = finish;
    });
  }

  close(): void {
    this.hub.remove(this);
  }
}

type IpcMessage = { type: string; channel: string; data: unknown };

const isBroadcast = (message: unknown): message is IpcMessage =>
  typeof message === "object" && message !== null && (message as IpcMessage).type === BROADCAST_TYPE && (message as IpcMessage).channel === BROADCAST_CHANNEL;

class Hub {
  private readonly watches = new Map<string, Set<InitWatch>>();
  private listening = false;
  private readonly waiting: Record<Waiter, number> = { preferWait: 0, eventStream: 0 };
  stopping = false;

  constructor() {
    reportMetric("waitingClients", () => ({ ...this.waiting }));
    process.once(STOPPING_EVENT, () => {
      this.stopping = true;
      for (const set of this.watches.values()) for (const watch of [...set]) watch.stop();
    });
    // A worker of `npm start` hears the other workers' notices from the primary.
    if (cluster.isWorker) {
      process.on("message", (message: unknown) => {
        if (isBroadcast(message) && typeof message.data === "string") this.deliver(message.data);
      });
    }
  }

  watch(initId: string, waiter: Waiter): InitWatch {
    const cfg = config();
    if (databaseProvider(cfg.databaseUrl) === "postgresql") this.listen(cfg);
    const watch = new InitWatch(this, initId, waiter);
    this.waiting[waiter] += 1;
    let set = this.watches.get(initId);
    if (set === undefined) {
      set = new Set();
      this.watches.set(initId, set);
    }
    set.add(watch);
    return watch;
  }

  remove(watch: InitWatch): void {
    const set = this.watches.get(watch.initId);
    if (set === undefined || !set.delete(watch)) return;
    this.waiting[watch.waiter] -= 1;
    if (set.size === 0) this.watches.delete(watch.initId);
  }

  count(initId: string): number {
    return this.watches.get(initId)?.size ?? 0;
  }

  deliver(initId: string): void {
    const set = this.watches.get(initId);
    if (set !== undefined) for (const watch of [...set]) watch.notify();
  }

  /** Every waiter reads its row again: after (re)connecting, a notice may have been missed. */
  wakeAll(): void {
    for (const set of this.watches.values()) for (const watch of [...set]) watch.notify();
  }

  /** Never throws: the change is committed, and a notice that does not travel only delays the waiters to their deadline. */
  async publish(cfg: Config, initId: string): Promise<void> {
    this.deliver(initId);
    try {
      if (databaseProvider(cfg.databaseUrl) === "postgresql") {
        const prisma = await db();
        await prisma.$executeRaw`SELECT pg_notify(${NOTIFY_CHANNEL}, ${initId})`;
      } else if (cluster.isWorker && process.send) {
        // The write's error comes later, to this callback: the primary may be gone (the worker then exits).
        process.send({ type: BROADCAST_TYPE, channel: BROADCAST_CHANNEL, data: initId } satisfies IpcMessage, (error: Error | null) => {
          if (error) logger().warn({ err: error, init_id: initId }, "init change notice not relayed");
        });
      }
    } catch (error) {
      logger().warn({ err: error, init_id: initId }, "init change notice not sent");
    }
  }

  /** One LISTEN connection for this process, for as long as it runs, reconnected with backoff. */
  private listen(cfg: Config): void {
    if (this.listening) return;
    this.listening = true;
    let delay = RECONNECT_MIN_MS;
    const connect = async () => {
      // TCP keep-alive from 15 s idle: a connection dropped by a NAT or a failover is noticed
      // (and reconnected) within a minute or so, not after the system's default two hours.
      const client = new pg.Client({ connectionString: cfg.databaseListenUrl ?? cfg.databaseUrl, keepAlive: true, keepAliveInitialDelayMillis: 15_000 });
      let retried = false;
      const retry = (error?: Error) => {
        if (retried) return;
        retried = true;
        // Said once per attempt, without the URL: a wrong DATABASE_LISTEN_URL must not go unnoticed.
        logger().warn({ err: error ?? "connection ended", retry_ms: delay }, "change-notice listener disconnected; reconnecting");
        client.removeAllListeners("notification");
        void client.end().catch(() => undefined);
        setTimeout(() => void connect(), delay).unref();
        delay = Math.min(delay * 2, RECONNECT_MAX_MS);
      };
      client.on("error", retry);
      client.on("end", retry);
      client.on("notification", (notice) => {
        if (notice.channel === NOTIFY_CHANNEL && notice.payload) this.deliver(notice.payload);
      });
      try {
        await client.connect();
        await client.query(`LISTEN ${NOTIFY_CHANNEL}`);
      } catch (error) {
        retry(error instanceof Error ? error : undefined);
        return;
      }
      delay = RECONNECT_MIN_MS;
      this.wakeAll();
    };
    void connect();
  }
}

// One hub per process: the status route, the event stream and the approve and deny forms are
// separate bundles, and must share it.
const hub = () => processWide("init-events", () => new Hub());

/** Subscribes to the init's change notices; close() the watch when done. */
export const watchInit = (initId: string, waiter: Waiter): InitWatch => hub().watch(initId, waiter);

/** Tells every waiter of the init, on every process and instance, that it may have changed. */
export const publishInitChange = (cfg: Config, initId: string): Promise<void> => hub().publish(cfg, initId);

/** How many requests of this process wait on the init now. */
export const waitingOn = (initId: string): number => hub().count(initId);
