import { db, type Database } from "../database/db";
import { hashSecret } from "../secrets";
import type { Flow } from "./flow";

// A flow through the identity provider completes once. Its state's SHA-256 is written
// (OidcCallback) in the transaction of what the callback did: the unique insert refuses a second
// completion, even two at once. A row is needed only while its flow's cookie could still be
// presented: the sweep deletes it after the flow's expiry.

/** The statement that spends `flow`: it fails if the flow completed before. */
export const spendFlow = (prisma: Database, flow: Flow) => prisma.oidcCallback.create({ data: { id: hashSecret(flow.state), expiresAt: new Date(flow.expiresAt) } });

/** Whether `flow` completed before (its answer is being used again). */
export async function flowSpent(flow: Flow): Promise<boolean> {
  const prisma = await db();
  return (await prisma.oidcCallback.count({ where: { id: hashSecret(flow.state) } })) > 0;
}

/** Deletes the rows of flows past their expiry (lib/maintenance/sweep.ts). */
export async function sweepSpentFlows(now: number): Promise<number> {
  const prisma = await db();
  const { count } = await prisma.oidcCallback.deleteMany({ where: { expiresAt: { lt: new Date(now) } } });
  return count;
}
