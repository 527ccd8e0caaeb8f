import { db } from "../database/db";

// The account's privacy setting (/settings/privacy): whether a client the person approves learns
// their email (`approved_by` at the token pickup). Off unless the person turns it on.

export async function sharesEmailWithClients(userId: string): Promise<boolean> {
  const prisma = await db();
  const user = await prisma.user.findUniqueOrThrow({ where: { id: userId }, select: { shareEmailWithClients: true } });
  return user.shareEmailWithClients;
}

export async function setShareEmailWithClients(userId: string, share: boolean): Promise<void> {
  const prisma = await db();
  await prisma.user.update({ where: { id: userId }, data: { shareEmailWithClients: share } });
}
