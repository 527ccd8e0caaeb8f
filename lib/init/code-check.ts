import { timingSafeEqual } from "node:crypto";
import type { Config } from "../config";
import { db } from "../database/db";
import { ApiError, rateLimited, initNotPending } from "../errors";
import { MAX_CODE_ATTEMPTS } from "../limits/rules";
import { publishInitChange } from "./init-events";
import type { CodeCheck } from "./schemas";
import { normaliseUserCode } from "./user-code";

// RFC 8628 §5.4 (remote phishing): before approving, the person shows that they started the
// request. Where the client shows a code (or INIT_CODE_CHECK=enter says every client does), they
// type it (unless they typed it at /device: lib/init/code-entry.ts); where it shows none
// (confirm), they tick that they started it, the page naming the application, device and time:
// a code the client never showed is never asked about. Typed codes are compared in constant
// time, and too many wrong ones deny the init, so the code cannot be guessed.

export async function checkUserCode(cfg: Config, mode: Config["initCodeCheck"], initId: string, userCode: string, check: CodeCheck): Promise<void> {
  if (mode === "confirm") {
    if (!check.confirmed) throw new ApiError("not_confirmed", "Confirm that you started this request yourself.");
    return;
  }
  // No code at all is no guess: refused before an attempt is taken, counting nothing.
  if (normaliseUserCode(check.entered) === "") throw new ApiError("code_mismatch", "Type the code your terminal shows.");
  // One attempt is taken before the code is compared, by one conditional update, so at most
  // MAX_CODE_ATTEMPTS codes are ever compared, however many arrive at once; a right code gives
  // its attempt back (only wrong codes count).
  const prisma = await db();
  const taken = await prisma.init.updateMany({
    where: { id: initId, status: "pending", codeAttempts: { lt: MAX_CODE_ATTEMPTS } },
    data: { codeAttempts: { increment: 1 } },
  });
  if (taken.count !== 1) throw await noAttemptLeft(initId);
  const expected = Buffer.from(normaliseUserCode(userCode));
  const entered = Buffer.from(normaliseUserCode(check.entered));
  if (entered.length === expected.length && timingSafeEqual(entered, expected)) {
    await prisma.init.updateMany({ where: { id: initId, codeAttempts: { gt: 0 } }, data: { codeAttempts: { decrement: 1 } } });
    return;
  }
  // Wrong codes are counted apart from the attempts still being compared, and the count comes
  // back from the same statement: the fifth wrong code denies, whatever order concurrent codes
  // are compared in (a right one among them is not a wrong one).
  const counted = await prisma.$queryRaw<{ wrongCodes: number | bigint }[]>`
    UPDATE "Init" SET "wrongCodes" = "wrongCodes" + 1 WHERE "id" = ${initId} AND "status" = 'pending' RETURNING "wrongCodes"`;
  if (counted.length === 1 && Number(counted[0].wrongCodes) < MAX_CODE_ATTEMPTS) {
    throw new ApiError("code_mismatch", "That code does not match. Check the code in your terminal and type it again.");
  }
  const denied = await prisma.init.updateMany({ where: { id: initId, status: "pending" }, data: { status: "denied", decidedAt: new Date() } });
  // A denial like the person's own: the client waiting on it learns it now, not at its wait's end.
  if (denied.count === 1) await publishInitChange(cfg, initId);
  throw initNotPending(denied.count === 1 ? TOO_MANY_WRONG_CODES : "This request is no longer pending.");
}

const TOO_MANY_WRONG_CODES = "Too many wrong codes: this request has been denied.";

/**
 * No attempt left: the init is denied (or decided otherwise), or the last attempts are being
 * compared right now; if one of them is the right code it is given back, so try again shortly.
 */
async function noAttemptLeft(initId: string): Promise<ApiError> {
  const prisma = await db();
  const init = await prisma.init.findUnique({ where: { id: initId }, select: { status: true } });
  if (init?.status === "pending") return rateLimited("Another code for this request is being checked. Try again in 1 s.", 1);
  return initNotPending(init?.status === "denied" ? TOO_MANY_WRONG_CODES : "This request is no longer pending.");
}
