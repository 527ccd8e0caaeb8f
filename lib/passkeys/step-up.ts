import { generateAuthenticationOptions, type AuthenticationResponseJSON, type PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/server";
import { isoBase64URL } from "@simplewebauthn/server/helpers";
import type { Config } from "../config";
import { db } from "../database/db";
import { ApiError } from "../errors";
import { consumeRateLimit } from "../limits/rate-limit";
import { limitRules } from "../limits/rules";
import { issueChallenge } from "./challenges";
import { relyingParty } from "./relying-party";
import type { StepUpRequest } from "./schemas";
import { verifyAssertion } from "./verify-assertion";

// "Approvals need a passkey" (docs/security.md, Passkey step-up). On an account with the
// setting, approving an init (also reached through /device) or a browser link needs a fresh
// assertion: user-verified, made on this origin, for a challenge handed to this account for this
// very approval (its subject: the init's id, or the link's project and iv) at most
// CHALLENGE_LIFETIME_MS before, and used once. A passkey sign-in, or an assertion made for
// another approval, does not count. Turning the setting off needs one too (subject "settings"),
// so a borrowed session cannot switch it off quietly; so does adding a passkey to an account that
// has one (subject "add_passkey", lib/passkeys/register-passkey.ts), whatever the setting.

/** What a step-up challenge is bound to. */
export function stepUpSubject(request: StepUpRequest["for"]): string {
  switch (request.kind) {
    case "init":
      return `init:${request.id}`;
    case "link":
      return `link:${request.projectId}:${request.iv}`;
    case "settings":
      return "settings";
    case "add_passkey":
      return "add_passkey";
  }
}

/** Whether the account's approvals need a passkey. */
export async function approvalsNeedPasskey(userId: string): Promise<boolean> {
  const prisma = await db();
  return (await prisma.passkeyApprovals.findUnique({ where: { userId }, select: { userId: true } })) !== null;
}

/** Options for an assertion bound to `subject`, offering the account's own passkeys. */
export async function stepUpOptions(cfg: Config, userId: string, subject: string): Promise<PublicKeyCredentialRequestOptionsJSON> {
  await consumeRateLimit(limitRules(cfg).passkeyChallengesPerAccount, userId);
  const prisma = await db();
  const passkeys = await prisma.passkey.findMany({ where: { userId }, select: { credentialId: true, transports: true } });
  const challenge = await issueChallenge({ purpose: "step_up", userId, subject });
  return generateAuthenticationOptions({
    rpID: relyingParty(cfg).id,
    challenge: isoBase64URL.toBuffer(challenge),
    userVerification: "required",
    allowCredentials: passkeys.map((passkey) => ({ id: passkey.credentialId, transports: passkey.transports?.split(",") })),
  });
}

/**
 * The check an approval makes before it decides: nothing on an account without the setting;
 * otherwise `assertion` must verify for `subject` (passkey_required without one).
 */
export async function requireStepUp(cfg: Config, userId: string, subject: string, assertion: AuthenticationResponseJSON | undefined): Promise<void> {
  if (!(await approvalsNeedPasskey(userId))) return;
  if (assertion === undefined) throw new ApiError("passkey_required", "Your approvals need a passkey: confirm this approval with one of your passkeys.");
  await verifyAssertion(cfg, assertion, { purpose: "step_up", userId, subject });
}
