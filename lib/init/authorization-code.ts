import type { Config } from "../config";
import { seal, unseal } from "../crypto/sealed";
import type { Database } from "../database/db";
import { hashSecret, randomSecret } from "../secrets";

// The authorization code of an init made by an authorization request (RFC 6749 §4.1.2;
// lib/oauth/authorization-request.ts): minted by the approval, in its transaction, so that an
// approval and its code commit together. Its hash finds it at the token endpoint; its sealed
// copy (under MASTER_KEY, bound to the init) lets the approving person's page carry it to the
// client's redirect URI (lib/oauth/authorization-code.ts), until it is exchanged.

/** The prefix of an authorization code; secret scanners find it by it. */
export const AUTHORIZATION_CODE_PREFIX = "ilac_";
/** RFC 6749 §4.1.2: short-lived; the page sends the browser on at once. */
export const AUTHORIZATION_CODE_LIFETIME_MS = 60_000;

/** A sealed code opens only for its own init's row. */
const sealedAs = (initId: string) => `authorization-code:${initId}`;

/**
 * The statement of an approval's transaction that mints the code of the init's authorization
 * request, if it has one and `userId`'s approval has just made it done; otherwise it changes nothing.
 */
export function mintCodeStatement(cfg: Config, prisma: Database, initId: string, userId: string, now: Date) {
  const code = randomSecret(AUTHORIZATION_CODE_PREFIX);
  return prisma.authorizationRequest.updateMany({
    where: { initId, codeHash: null, init: { is: { status: "done", approvedById: userId } } },
    data: { codeHash: hashSecret(code), sealedCode: seal(cfg.masterKey, Buffer.from(code), sealedAs(initId)), codeExpiresAt: new Date(now.getTime() + AUTHORIZATION_CODE_LIFETIME_MS) },
  });
}

/** The code a sealed copy holds. */
export const unsealedCode = (cfg: Config, initId: string, sealedCode: string): string => unseal(cfg.masterKey, sealedCode, sealedAs(initId)).toString("utf8");
