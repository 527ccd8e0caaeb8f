import { createHash } from "node:crypto";
import type { Config } from "../config";
import { db } from "../db";
import { ApiError } from "../http/errors";
import { assertUnderLimit, recordEvent } from "../limits/rate-limit";
import { limitRules } from "../limits/rules";
import { projectUrl } from "../projects/projects";
import { deleteAccessToken, issueProjectAccessToken } from "../tokens/access-tokens";
import { RANDOM_ID_PATTERN, secretMatchesHash } from "../secrets";

export type InitStatus = "pending" | "done" | "denied" | "expired";

/** A stored status read at `now`: a pending init past its expiry is expired, swept or not. */
export function effectiveStatus(stored: string, expiresAt: Date, now: number): InitStatus {
  if (stored === "done" || stored === "denied") return stored;
  return expiresAt.getTime() <= now ? "expired" : "pending";
}

// A poll counts as on time when at least this share of the interval has passed since the
// poller's last accepted poll: network jitter must never slow down a client that keeps time.
export const POLL_TOLERANCE = 0.25;

/** Who is polling: the CLI and the person's browser differ in address, user agent or credentials. */
export function pollerKey(address: string | null, userAgent: string | null, authorization: string | null): string {
  return createHash("sha256").update(`${address ?? ""}\n${userAgent ?? ""}\n${authorization ?? ""}`).digest("base64url");
}

export const initNotFound = () => new ApiError("not_found", "No init with this id exists.");

// RFC 8628 §3.5: a client polling faster than the interval is told to slow down. Only accepted
// polls move the clock, so a too-fast poll never pushes the next allowed one further out. One
// statement records an on-time poll and refuses a fast one, atomically (SQLite and PostgreSQL
// share this upsert syntax).
async function admitPoll(initId: string, key: string, intervalMs: number, now: number): Promise<void> {
  const prisma = await db();
  const polledAt = new Date(now);
  const onTimeSince = new Date(now - Math.floor(intervalMs * (1 - POLL_TOLERANCE)));
  const accepted = await prisma.$executeRaw`
    INSERT INTO "InitPoll" ("initId", "pollerKey", "lastPolledAt") VALUES (${initId}, ${key}, ${polledAt})
    ON CONFLICT ("initId", "pollerKey") DO UPDATE SET "lastPolledAt" = excluded."lastPolledAt"
    WHERE "InitPoll"."lastPolledAt" <= ${onTimeSince}`;
  if (accepted === 1) return;
  const last = await prisma.initPoll.findUnique({ where: { initId_pollerKey: { initId, pollerKey: key } } });
  const waitMs = last ? last.lastPolledAt.getTime() + intervalMs - now : intervalMs;
  throw new ApiError("slow_down", `Polling too fast: wait ${intervalMs} ms between requests.`, {
    interval: intervalMs,
    retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
  });
}

/** What the client holding the init's secret learns besides the status. */
type ClientExtras = {
  project?: { id: string; name: string };
  approved_by?: { email: string };
  access_token?: string;
  access_token_expires_at?: number;
};

/** The status resource. `project_id` and `project_url` once done; the extras for the secret's holder. */
export type StatusAnswer = {
  id: string;
  status: InitStatus;
  timestamp: number;
  interval: number;
  expires_at: number;
  project_id?: string;
  project_url?: string;
} & ClientExtras;

// Once done, the client that presents the secret gets the project, the approver and, exactly
// once, an access token for the project. The token row is made first and then claimed with a
// conditional update; a request that loses the claim deletes its token unseen.
async function clientExtras(cfg: Config, initId: string, alreadyIssued: boolean): Promise<ClientExtras> {
  const prisma = await db();
  const init = await prisma.init.findUniqueOrThrow({
    where: { id: initId },
    select: { sender: true, senderDevice: true, project: { select: { id: true, name: true } }, approvedBy: { select: { id: true, email: true } } },
  });
  if (init.project === null || init.approvedBy === null) return {};
  const extras: ClientExtras = { project: init.project, approved_by: { email: init.approvedBy.email } };
  if (alreadyIssued) return extras;
  const name = init.senderDevice ? `${init.sender} on ${init.senderDevice}` : init.sender;
  const issued = await issueProjectAccessToken(cfg, init.approvedBy.id, init.project.id, name);
  const claimed = await prisma.init.updateMany({ where: { id: initId, accessTokenId: null }, data: { accessTokenId: issued.id } });
  if (claimed.count !== 1) {
    await deleteAccessToken(issued.id);
    return extras;
  }
  return { ...extras, access_token: issued.token, access_token_expires_at: issued.expiresAt.getTime() };
}

/**
 * The status of an init, for any poller. `secret` is what the caller presented as
 * `Authorization: Bearer <secret>`, if anything; a wrong one is refused.
 */
export async function readInitStatus(cfg: Config, id: string, poller: string, secret: string | null): Promise<StatusAnswer> {
  if (!RANDOM_ID_PATTERN.test(id)) throw initNotFound();
  const prisma = await db();
  const init = await prisma.init.findUnique({
    where: { id },
    select: { id: true, status: true, intervalMs: true, expiresAt: true, secretHash: true, projectId: true, accessTokenId: true },
  });
  if (init === null) throw initNotFound();
  // The secret is checked first: a refused request records no poll.
  if (secret !== null && !secretMatchesHash(secret, init.secretHash)) {
    throw new ApiError("invalid_secret", "The secret does not belong to this init.");
  }
  const now = Date.now();
  const status = effectiveStatus(init.status, init.expiresAt, now);
  // Pickups (the secret's holder reading a done init) are limited per init, on top of the
  // interval. Checked before and counted after the poll clock: a request refused by either
  // rule writes nothing.
  const pickup = secret !== null && status === "done";
  const pickups = limitRules(cfg).pickupsPerInit;
  if (pickup) await assertUnderLimit(pickups, init.id);
  await admitPoll(init.id, poller, init.intervalMs, now);
  if (pickup) await recordEvent(pickups, init.id);
  const answer: StatusAnswer = { id: init.id, status, timestamp: now, interval: init.intervalMs, expires_at: init.expiresAt.getTime() };
  if (status !== "done" || init.projectId === null) return answer;
  const done = { ...answer, project_id: init.projectId, project_url: projectUrl(cfg, init.projectId) };
  return secret === null ? done : { ...done, ...(await clientExtras(cfg, init.id, init.accessTokenId !== null)) };
}
