import { timingSafeEqual } from "node:crypto";
import type { Config } from "../config";
import { db } from "../db";
import { ApiError } from "../errors";
import type { CodeCheck } from "./schemas";
import { normaliseUserCode } from "./user-code";

// RFC 8628 §5.4 (remote phishing): before approving, the person checks that the code on the
// page is the one in their terminal, by ticking that it matches (INIT_CODE_CHECK=confirm) or by
// typing it (enter). Typed codes are compared in constant time, and too many wrong ones deny
// the init, so the code cannot be guessed.

export const MAX_CODE_ATTEMPTS = 5;

export async function checkUserCode(mode: Config["initCodeCheck"], initId: string, userCode: string, check: CodeCheck): Promise<void> {
  if (mode === "confirm") {
    if (!check.confirmed) throw new ApiError("code_mismatch", "Confirm that the code matches the one in your terminal.");
    return;
  }
  const expected = Buffer.from(normaliseUserCode(userCode));
  const entered = Buffer.from(normaliseUserCode(check.entered));
  if (entered.length === expected.length && timingSafeEqual(entered, expected)) return;
  const prisma = await db();
  await prisma.init.updateMany({ where: { id: initId, status: "pending" }, data: { codeAttempts: { increment: 1 } } });
  const denied = await prisma.init.updateMany({
    where: { id: initId, status: "pending", codeAttempts: { gte: MAX_CODE_ATTEMPTS } },
    data: { status: "denied", decidedAt: new Date() },
  });
  if (denied.count === 1) throw new ApiError("init_not_pending", "Too many wrong codes: this request has been denied.");
  throw new ApiError("code_mismatch", "That code does not match. Check the code in your terminal and type it again.");
}
