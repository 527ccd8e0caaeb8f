import { sessionUser } from "../auth/sessions";
import type { EdgeHold } from "../api/route";
import type { Config } from "../config";
import { directSql, timestampMs } from "../database/direct-sql";
import { projectUrl } from "../projects/projects";
import { boundKey, type DpopRequest } from "../oauth/dpop";
import type { RequestOrigin } from "../request-origin";
import { RANDOM_ID_PATTERN } from "../secrets";
import { watchInit, type InitWatch } from "./init-events";
import { effectiveStatus, initNotFound, NOT_PENDING, type InitStatus } from "./init-lifecycle";
import { admitPoll, type Poller } from "./poll-interval";
import type { InitStatusAnswer } from "./schemas";
import { assertInitSecret, pickupExtras, returnPickup, takePickup } from "./token-pickup";

// The status resource `GET /api/init/{id}` (the `url` of Create Init), polled by the client and
// by the init page.

/** `project_id` and `project_url` once done; the pickup's extras for the secret's holder. */
export type StatusAnswer = InitStatusAnswer;

/**
 * RFC 7240 `Prefer: wait`: hold a pending init's answer up to `seconds`, unless the client goes
 * (`signal`); with `edgeHold`, the production server's edge holds it, parked, instead.
 */
export type Hold = { seconds: number; signal: AbortSignal; edgeHold?: EdgeHold | null };

/**
 * Who asks: what they presented as `Authorization: Bearer <secret>`, if anything; the session
 * token the request carries (the init page's own polling); and where the request came from,
 * worked out only when it is needed (a reader's clock, a token pickup's record); and the DPoP
 * proof a token pickup is bound by (lib/init/token-pickup.ts).
 */
export type StatusCaller = { secret: string | null; sessionToken: string | undefined; origin: () => RequestOrigin; dpop: DpopRequest };

/** The row an answer is made of. */
export type InitRow = {
  id: string;
  status: string;
  intervalMs: number;
  expiresAt: Date;
  secretHash: string;
  projectId: string | null;
  accessTokenId: string | null;
  dpopJkt: string | null;
};

type StoredInitRow = Omit<InitRow, "intervalMs" | "expiresAt"> & { intervalMs: number | string; expiresAt: string };

// Read on every poll, so on the driver itself (lib/database/direct-sql.ts).
const INIT_ROW = `SELECT "id", "status", "intervalMs", "expiresAt", "secretHash", "projectId", "accessTokenId", "dpopJkt" FROM "Init" WHERE "id" = ?`;

export async function readInitRow(id: string): Promise<InitRow | null> {
  const sql = await directSql();
  const row = await sql.one<StoredInitRow>(INIT_ROW, [id]);
  if (row === undefined) return null;
  return { ...row, intervalMs: Number(row.intervalMs), expiresAt: new Date(timestampMs(row.expiresAt)) };
}

/**
 * The status of an init, for any poller. The caller's secret is checked against this init's hash
 * here, in the one read the answer needs. With `hold`, a pending init's answer waits for a change.
 */
export async function readInitStatus(cfg: Config, id: string, caller: StatusCaller, hold: Hold | null = null): Promise<StatusAnswer> {
  if (!RANDOM_ID_PATTERN.test(id)) throw initNotFound();
  if (hold === null || hold.seconds === 0) return pollInitStatus(cfg, id, caller, null);
  const resumed = hold.edgeHold?.resumed;
  if (resumed) return resumedAnswer(cfg, id, caller, hold, resumed);
  // Watched before the first read: a change committed after that read still wakes the wait.
  const watch = watchInit(id, "preferWait");
  let parked = false;
  try {
    return await pollInitStatus(cfg, id, caller, { ...hold, watch, parked: () => (parked = true) });
  } finally {
    // A parked wait's watch is the edge's until it answers (server/parking.mjs).
    if (!parked) watch.close();
  }
}

/** When a wait that starts now on `init` ends: after `seconds`, or at the init's expiry. */
const holdUntil = (init: InitRow, seconds: number) => Math.min(Date.now() + seconds * 1000, init.expiresAt.getTime());

/** Whose clock a poll moves (lib/init/poll-interval.ts): the session is looked up only for a request that carries one and no secret. */
async function pollerOf(caller: StatusCaller): Promise<Poller> {
  if (caller.secret !== null) return { kind: "secret_holder" };
  const viewer = caller.sessionToken === undefined ? null : await sessionUser(caller.sessionToken);
  return viewer === null ? { kind: "reader", address: caller.origin().address } : { kind: "viewer", userId: viewer.id };
}

/** The secret's holder, and the key the token it picks up is bound to: its DPoP proof checked (and spent) once, when needed. */
export type Holder = { secret: string; dpopJkt: () => Promise<string | null> };

function holderOf(cfg: Config, secret: string | null, init: InitRow, dpop: DpopRequest): Holder | null {
  if (secret === null) return null;
  let checked: Promise<string | null> | undefined;
  return { secret, dpopJkt: () => (checked ??= boundKey(cfg, init.dpopJkt, dpop)) };
}

type Held = Hold & { watch: InitWatch; parked: () => void };

async function pollInitStatus(cfg: Config, id: string, caller: StatusCaller, held: Held | null): Promise<StatusAnswer> {
  const { secret, origin, dpop } = caller;
  const init = await readInitRow(id);
  if (init === null) throw initNotFound();
  // The secret is checked first: a refused request records no poll.
  if (secret !== null) assertInitSecret(secret, init.secretHash);
  const holder = holderOf(cfg, secret, init, dpop);
  const poller = await pollerOf(caller);
  const now = Date.now();
  const status = effectiveStatus(init.status, init.expiresAt, now);
  // So is the DPoP proof of a request that will pick up the token.
  if (holder !== null && status === "done" && init.accessTokenId === null) await holder.dpopJkt();
  const pickup = secret !== null && status === "done" ? await takePickup(cfg, init.id) : null;
  // A held request is one poll: admitted by the clock once, here, at its start.
  try {
    await admitPoll(init.id, poller, init.intervalMs, now);
  } catch (error) {
    if (pickup !== null) await returnPickup(pickup);
    throw error;
  }
  if (held !== null && status === "pending") {
    if (!held.edgeHold) return heldAnswer(cfg, init, holder, origin, held);
    held.edgeHold.park(held.watch, holdUntil(init, held.seconds));
    held.parked();
  }
  return statusAnswer(cfg, init, status, now, holder, origin);
}

/**
 * A parked wait the edge sends through again (an init change, the end of the wait, the process
 * stopping): answered as heldAnswer answers once its wait ends, or parked again when the notice
 * changed nothing and the wait goes on. The poll clock is not moved: the wait was admitted as
 * one poll at its start.
 */
async function resumedAnswer(cfg: Config, id: string, caller: StatusCaller, hold: Hold, resumed: NonNullable<EdgeHold["resumed"]>): Promise<StatusAnswer> {
  const { secret, origin, dpop } = caller;
  const init = await readInitRow(id);
  if (init === null) throw initNotFound();
  if (secret !== null) assertInitSecret(secret, init.secretHash);
  const holder = holderOf(cfg, secret, init, dpop);
  const now = Date.now();
  const status = effectiveStatus(init.status, init.expiresAt, now);
  if (status === "pending" && resumed.end === "changed" && now < resumed.until) {
    hold.edgeHold?.park(null, resumed.until);
    return statusAnswer(cfg, init, status, now, holder, origin);
  }
  return endOfWait(cfg, init, status, now, holder, origin, hold.signal);
}

/** The answer once the held init changed, expired, or the wait ended; the row is read again only then. */
async function heldAnswer(cfg: Config, first: InitRow, holder: Holder | null, origin: () => RequestOrigin, held: Hold & { watch: InitWatch }): Promise<StatusAnswer> {
  const until = holdUntil(first, held.seconds);
  let init = first;
  let now = Date.now();
  let status: InitStatus = "pending";
  while (status === "pending" && now < until) {
    const end = await held.watch.next(until, held.signal);
    if (end === "aborted") break;
    init = (await readInitRow(first.id)) ?? init;
    now = Date.now();
    status = effectiveStatus(init.status, init.expiresAt, now);
    // The process is stopping: answered with the status as it is now, the client asks again.
    if (end === "stopping") break;
  }
  return endOfWait(cfg, init, status, now, holder, origin, held.signal);
}

/**
 * The answer of a held poll once its wait is over (exported for its test). A client that went
 * away must not spend the one-time token on an answer nobody reads: its answer has no pickup.
 */
export async function endOfWait(cfg: Config, init: InitRow, status: InitStatus, now: number, holder: Holder | null, origin: () => RequestOrigin, signal: AbortSignal): Promise<StatusAnswer> {
  const reader = signal.aborted ? null : holder;
  if (reader !== null && status === "done") {
    // The DPoP proof first, as a poll checks it: a refused one takes no pickup.
    if (init.accessTokenId === null) await reader.dpopJkt();
    await takePickup(cfg, init.id);
  }
  return statusAnswer(cfg, init, status, now, reader, origin);
}

/** The answer for a row read at `now`; the pickup's extras only for the secret's holder. */
export async function statusAnswer(cfg: Config, init: InitRow, status: InitStatus, now: number, holder: Holder | null, origin: () => RequestOrigin): Promise<StatusAnswer> {
  const answer: StatusAnswer = { id: init.id, status, timestamp: now, interval: init.intervalMs, expires_at: init.expiresAt.getTime() };
  // Clients of the original platform stop polling only on an `error`: without one they poll a denied or expired init until their own timeout.
  if (status === "denied" || status === "expired") return { ...answer, error: NOT_PENDING[status] };
  if (status !== "done" || init.projectId === null) return answer;
  const done = { ...answer, project_id: init.projectId, project_url: projectUrl(cfg, init.projectId) };
  if (holder === null) return done;
  const extras = await pickupExtras(cfg, init.id, init.accessTokenId !== null, origin(), holder.dpopJkt);
  // The approval was reported while this answer was made: the holder learns it is denied.
  return extras === "denied" ? statusAnswer(cfg, init, "denied", now, null, origin) : { ...done, ...extras };
}
