import { db } from "../database/db";

// RFC 8628 §3.3: a person who typed a request's code at the verification page (/device) has typed
// it, and its init page does not ask again. What /device verified is kept on the init for the
// browser session that typed it, never carried in the page's URL: a link's `?user_code=` would be
// a code the person never typed (a phisher sends one along). It lives no longer than the init,
// and only the approval that decides the init uses it, clearing it in its own conditional update
// (lib/init/approve-init.ts): a refused approval writes nothing, and a second one finds the init
// decided.

/** Records that `sessionId` typed the code of the pending init `initId` at /device; a later entry by another session replaces it. */
export async function recordCodeEntered(initId: string, sessionId: string): Promise<void> {
  const prisma = await db();
  await prisma.init.updateMany({ where: { id: initId, status: "pending" }, data: { codeEnteredSessionId: sessionId } });
}

/** Whether `sessionId` typed the init's code at /device and has not used it: the page then asks for nothing more. */
export async function codeEnteredBy(initId: string, sessionId: string): Promise<boolean> {
  const prisma = await db();
  return (await prisma.init.count({ where: { id: initId, codeEnteredSessionId: sessionId } })) === 1;
}
