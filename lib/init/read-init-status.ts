import type { Config } from "../config";
import { db } from "../db";
import { projectUrl } from "../projects/projects";
import { RANDOM_ID_PATTERN } from "../secrets";
import { effectiveStatus, initNotFound, type InitStatus } from "./init-lifecycle";
import { admitPoll } from "./poll-interval";
import { assertInitSecret, assertPickupAllowed, pickupExtras, recordPickup, type PickupExtras } from "./token-pickup";

// The status resource `GET /api/init/{id}` (the `url` of Create Init), polled by the client and
// by the init page.

/** `project_id` and `project_url` once done; the pickup's extras for the secret's holder. */
export type StatusAnswer = {
  id: string;
  status: InitStatus;
  timestamp: number;
  interval: number;
  expires_at: number;
  project_id?: string;
  project_url?: string;
} & PickupExtras;

/**
 * The status of an init, for any poller. `secret` is what the caller presented as
 * `Authorization: Bearer <secret>`, if anything; it is checked against this init's hash here,
 * in the one read the answer needs.
 */
export async function readInitStatus(cfg: Config, id: string, secret: string | null): Promise<StatusAnswer> {
  if (!RANDOM_ID_PATTERN.test(id)) throw initNotFound();
  const prisma = await db();
  const init = await prisma.init.findUnique({
    where: { id },
    select: { id: true, status: true, intervalMs: true, expiresAt: true, secretHash: true, projectId: true, accessTokenId: true },
  });
  if (init === null) throw initNotFound();
  // The secret is checked first: a refused request records no poll.
  if (secret !== null) assertInitSecret(secret, init.secretHash);
  const now = Date.now();
  const status = effectiveStatus(init.status, init.expiresAt, now);
  const pickup = secret !== null && status === "done";
  if (pickup) await assertPickupAllowed(cfg, init.id);
  await admitPoll(cfg, init.id, secret === null ? "anyone" : "secret_holder", init.intervalMs, now);
  if (pickup) await recordPickup(cfg, init.id);
  const answer: StatusAnswer = { id: init.id, status, timestamp: now, interval: init.intervalMs, expires_at: init.expiresAt.getTime() };
  if (status !== "done" || init.projectId === null) return answer;
  const done = { ...answer, project_id: init.projectId, project_url: projectUrl(cfg, init.projectId) };
  return secret === null ? done : { ...done, ...(await pickupExtras(cfg, init.id, init.accessTokenId !== null)) };
}
