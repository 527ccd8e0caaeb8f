import type { Config } from "../config";
import { tokenCollectedRecord } from "../activity/record-activity";
import { db, inOneTransaction } from "../database/db";
import { ApiError } from "../errors";
import { consumeRateLimit, giveBack, type TakenUnit } from "../limits/rate-limit";
import { limitRules } from "../limits/rules";
import type { RequestOrigin } from "../request-origin";
import { secretMatchesHash } from "../secrets";
import { deleteAccessToken, issueProjectAccessToken } from "../access-tokens/issue-access-token";

// The token pickup: once an init is done, the client that presents the init's secret
// (`Authorization: Bearer <secret>`, RFC 6750 §2.1) gets the project, the approver and, exactly
// once, an access token for the project. Anyone else polling sees only the status.

/** What the client holding the init's secret learns besides the status. */
export type PickupExtras = {
  project?: { id: string; name: string };
  approved_by?: { email: string };
  access_token?: string;
  access_token_expires_at?: number;
};

/** A presented secret must be this init's; a wrong one is refused before anything is recorded. */
export function assertInitSecret(presented: string, storedHash: string): void {
  if (!secretMatchesHash(presented, storedHash)) throw new ApiError("invalid_secret", "The secret does not belong to this init.");
}

/**
 * Pickups are limited per init, on top of the interval: a unit is taken before anything else is
 * decided (a 429 once the window is full, writing nothing), so concurrent pickups never overshoot.
 */
export async function takePickup(cfg: Config, initId: string): Promise<TakenUnit> {
  return consumeRateLimit(limitRules(cfg).pickupsPerInit, initId);
}

/** A pickup refused afterwards (the poll clock's slow_down) does not count: its unit goes back. */
export async function returnPickup(unit: TakenUnit): Promise<void> {
  await giveBack(unit);
}

/**
 * The extras of a done init for its secret's holder, whose request is `origin`. The
 * token row is made first and then claimed with a conditional update, which the approver's
 * activity records; a request that loses the claim deletes its token unseen.
 */
export async function pickupExtras(cfg: Config, initId: string, alreadyIssued: boolean, origin: RequestOrigin): Promise<PickupExtras> {
  const prisma = await db();
  const init = await prisma.init.findUniqueOrThrow({
    where: { id: initId },
    select: { sender: true, senderDevice: true, project: { select: { id: true, name: true } }, approvedBy: { select: { id: true, email: true } } },
  });
  if (init.project === null || init.approvedBy === null) return {};
  const extras: PickupExtras = { project: init.project, approved_by: { email: init.approvedBy.email } };
  if (alreadyIssued) return extras;
  const name = init.senderDevice ? `${init.sender} on ${init.senderDevice}` : init.sender;
  const issued = await issueProjectAccessToken(cfg, init.approvedBy.id, init.project.id, name);
  const [claimed] = await inOneTransaction(
    prisma.init.updateMany({ where: { id: initId, accessTokenId: null }, data: { accessTokenId: issued.id } }),
    tokenCollectedRecord(prisma, initId, issued.id, origin),
  );
  if (claimed.count !== 1) {
    await deleteAccessToken(issued.id);
    return extras;
  }
  return { ...extras, access_token: issued.token, access_token_expires_at: issued.expiresAt.getTime() };
}
