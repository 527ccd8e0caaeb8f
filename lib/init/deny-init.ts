import type { Config } from "../config";
import { initDeniedRecord } from "../activity/record-activity";
import { db, inOneTransaction } from "../database/db";
import { initNotPending } from "../errors";
import { publishInitChange } from "./init-events";
import { NOT_PENDING, pendingInit } from "./init-lifecycle";
import type { RequestOrigin } from "../request-origin";

/**
 * A signed-in person denies a pending init; one conditional update decides, as for approval, and
 * records who, and from where (`origin`), in their activity. Its waiters hear of it.
 */
export async function denyInit(cfg: Config, userId: string, initId: string, origin: RequestOrigin): Promise<void> {
  const init = await pendingInit(initId);
  const prisma = await db();
  const now = new Date();
  const [denied] = await inOneTransaction(
    prisma.init.updateMany({
      where: { id: init.id, status: "pending", expiresAt: { gt: now } },
      data: { status: "denied", deniedById: userId, decidedAt: now },
    }),
    initDeniedRecord(prisma, init.id, userId, origin),
  );
  if (denied.count === 1) return publishInitChange(cfg, init.id);
  await pendingInit(init.id);
  throw initNotPending(NOT_PENDING.denied);
}
