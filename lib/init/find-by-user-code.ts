import type { SessionUser } from "../auth/sessions";
import type { Config } from "../config";
import { db } from "../database/db";
import { ApiError } from "../errors";
import { addressSubject, consumeRateLimit, giveBack, type TakenUnit } from "../limits/rate-limit";
import { limitRules } from "../limits/rules";
import type { RequestOrigin } from "../request-origin";
import { recordCodeEntered } from "./code-entry";
import { normaliseUserCode } from "./user-code";

// RFC 8628 §3.3: at the verification page (`verification_uri`, /device) a signed-in person types
// the code their client shows and is taken to that request's approval page, where everything
// else happens as for any init, the code counting as typed for this browser session
// (lib/init/code-entry.ts). Wrong codes are counted per account and per address before the
// lookup, so concurrent guesses cannot overshoot; a code that matches gives its units back.

/** The waiting init whose user code was typed. */
export type FoundInit = { id: string };

export async function findInitByUserCode(cfg: Config, { id: userId, sessionId }: SessionUser, typed: string, origin: RequestOrigin): Promise<FoundInit> {
  const rules = limitRules(cfg);
  const accountUnit = await consumeRateLimit(rules.userCodeGuessesPerAccount, userId);
  let addressUnit: TakenUnit;
  try {
    addressUnit = await consumeRateLimit(rules.userCodeGuessesPerAddress, addressSubject(origin.address));
  } catch (error) {
    await giveBack(accountUnit);
    throw error;
  }
  const letters = normaliseUserCode(typed);
  const userCode = `${letters.slice(0, 4)}-${letters.slice(4)}`;
  const prisma = await db();
  const init =
    letters.length === 8
      ? await prisma.init.findFirst({ where: { userCode, status: "pending", expiresAt: { gt: new Date() } }, orderBy: { createdAt: "desc" }, select: { id: true } })
      : null;
  if (init === null) throw new ApiError("unknown_user_code", "No request is waiting for that code.");
  await giveBack(accountUnit);
  await giveBack(addressUnit);
  await recordCodeEntered(init.id, sessionId);
  return { id: init.id };
}
