import { db } from "../db";
import { ApiError } from "../errors";
import { NOT_PENDING, pendingInit } from "./init-lifecycle";

/** A signed-in person denies a pending init; one conditional update decides, as for approval. */
export async function denyInit(initId: string): Promise<void> {
  const init = await pendingInit(initId);
  const prisma = await db();
  const now = new Date();
  const denied = await prisma.init.updateMany({
    where: { id: init.id, status: "pending", expiresAt: { gt: now } },
    data: { status: "denied", decidedAt: now },
  });
  if (denied.count === 1) return;
  await pendingInit(init.id);
  throw new ApiError("init_not_pending", NOT_PENDING.denied);
}
