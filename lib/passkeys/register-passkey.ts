import {
  generateRegistrationOptions,
  verifyRegistrationResponse,
  type PublicKeyCredentialCreationOptionsJSON,
  type RegistrationResponseJSON,
  type WebAuthnCredential,
} from "@simplewebauthn/server";
import { isoBase64URL } from "@simplewebauthn/server/helpers";
import { passkeyRecord } from "../activity/record-activity";
import { passwordsOn } from "../auth/account-policy";
import { checkPassword } from "../auth/password-check";
import type { SessionUser } from "../auth/sessions";
import type { Config } from "../config";
import { db, isUniqueViolation, statementsInOneTransaction } from "../database/db";
import { noticeStatements } from "../email/notices";
import { nudgeOutbox } from "../email/outbox";
import { ApiError, passkeyRejected } from "../errors";
import { countedUnlessRefused } from "../limits/rate-limit";
import { limitRules, PASSKEYS_PER_ACCOUNT } from "../limits/rules";
import type { RequestOrigin } from "../request-origin";
import { randomId } from "../secrets";
import { issueChallenge, useAnsweredChallenge } from "./challenges";
import { relyingParty } from "./relying-party";
import type { RegistrationProof } from "./schemas";
import { stepUpSubject } from "./step-up";
import { verifyAssertion } from "./verify-assertion";

// Adding a passkey on /settings/passkeys (W3C WebAuthn Level 3 §7.1, verified by
// SimpleWebAuthn). A new passkey signs in and confirms approvals as the others do, so a session
// alone must not add one: the options, and with them the registration challenge, are handed out
// only for a fresh proof that the person holds the account. On an account with a passkey, an
// assertion of one of them made for adding a passkey (a step-up challenge for "add_passkey":
// bound to the account, used once, five minutes); on one without, its current password, checked
// as every password is (lib/auth/password-check.ts: the same slot, wait and counters as sign-in);
// on one with neither (it signs in through its identity provider), a sign-in in the last 10 minutes.
// The options name this service, the account and the passkeys it already has (so one
// authenticator is not added twice), and ask for a discoverable credential (sign-in without an
// email) with user verification. The answer must be for a challenge handed to this account for
// registration, made on this origin; it is stored with its name and recorded in the activity,
// in one transaction.

/** How recent a sign-in through the identity provider proves the holder of an account without a password or passkey. */
const FRESH_SIGN_IN_MS = 10 * 60_000;

/** The proof adding a passkey needs: an assertion of one of the account's passkeys if it has any, else its current password. */
async function confirmHolder(cfg: Config, user: SessionUser, hasPasskey: boolean, proof: RegistrationProof, origin: RequestOrigin): Promise<void> {
  if (hasPasskey) {
    if (proof.passkey_assertion === undefined) throw new ApiError("passkey_required", "Your account has a passkey: confirm with one of your passkeys to add another.");
    await verifyAssertion(cfg, proof.passkey_assertion, { purpose: "step_up", userId: user.id, subject: stepUpSubject({ kind: "add_passkey" }) });
    return;
  }
  const prisma = await db();
  const account = await prisma.user.findUniqueOrThrow({ where: { id: user.id }, select: { passwordHash: true } });
  if (account.passwordHash === null || !passwordsOn(cfg)) {
    // Neither a passkey nor a password that works (the account signs in through its identity
    // provider): the provider's sign-in is the proof, so it must be recent, as a re-authentication would be.
    const session = await prisma.session.findUnique({ where: { id: user.sessionId }, select: { createdAt: true } });
    if (session === null || Date.now() - session.createdAt.getTime() > FRESH_SIGN_IN_MS) {
      throw new ApiError("sign_in_again", "Sign in again through your identity provider to add a passkey.");
    }
    return;
  }
  if (proof.current_password === undefined) throw new ApiError("password_required", "Type your current password to add a passkey.");
  if ((await checkPassword(cfg, user.email, proof.current_password, origin)) === null) throw new ApiError("wrong_password", "The current password is not right.");
}

/** The options for a new passkey, once `proof` shows the person holds the account; a refused request does not count against the account's challenges. */
export async function registrationOptions(cfg: Config, user: SessionUser, proof: RegistrationProof, origin: RequestOrigin): Promise<PublicKeyCredentialCreationOptionsJSON> {
  return countedUnlessRefused(limitRules(cfg).passkeyChallengesPerAccount, user.id, async () => {
    const prisma = await db();
    const existing = await prisma.passkey.findMany({ where: { userId: user.id }, select: { credentialId: true, transports: true } });
    await confirmHolder(cfg, user, existing.length > 0, proof, origin);
    const challenge = await issueChallenge({ purpose: "register", userId: user.id, subject: null });
    return generateRegistrationOptions({
      rpName: relyingParty(cfg).name,
      rpID: relyingParty(cfg).id,
      userName: user.email,
      // The account's id, not its email: the authenticator keeps it as the passkey's user handle.
      userID: new TextEncoder().encode(user.id),
      challenge: isoBase64URL.toBuffer(challenge),
      attestationType: "none",
      excludeCredentials: existing.map((passkey) => ({ id: passkey.credentialId, transports: passkey.transports?.split(",") })),
      authenticatorSelection: { residentKey: "required", userVerification: "required" },
    });
  });
}

/** The new credential, once SimpleWebAuthn has verified the answer against `challenge`, this origin and RP ID, with user verification. */
async function verifiedCredential(cfg: Config, response: RegistrationResponseJSON, challenge: string): Promise<WebAuthnCredential> {
  const rp = relyingParty(cfg);
  try {
    const verified = await verifyRegistrationResponse({ response, expectedChallenge: challenge, expectedOrigin: rp.origin, expectedRPID: rp.id, requireUserVerification: true });
    if (verified.verified) return verified.registrationInfo.credential;
  } catch (error) {
    throw passkeyRejected(`The new passkey was refused: ${error instanceof Error ? error.message : "it does not verify"}`);
  }
  throw passkeyRejected("The new passkey was refused: its attestation does not verify.");
}

export async function addPasskey(cfg: Config, userId: string, name: string, response: RegistrationResponseJSON, origin: RequestOrigin): Promise<string> {
  const prisma = await db();
  if ((await prisma.passkey.count({ where: { userId } })) >= PASSKEYS_PER_ACCOUNT) {
    throw new ApiError("passkey_limit_reached", `An account may have at most ${PASSKEYS_PER_ACCOUNT} passkeys. Remove one first.`);
  }
  const challenge = await useAnsweredChallenge(response.response.clientDataJSON, { purpose: "register", userId, subject: null });
  const credential = await verifiedCredential(cfg, response, challenge);
  const id = randomId();
  try {
    await statementsInOneTransaction([
      prisma.passkey.create({
        data: {
          id,
          userId,
          credentialId: credential.id,
          publicKey: isoBase64URL.fromBuffer(credential.publicKey),
          counter: BigInt(credential.counter),
          transports: credential.transports?.join(",") ?? null,
          name,
          createdAt: new Date(),
        },
      }),
      passkeyRecord(prisma, id, "passkey_added", origin),
      ...noticeStatements(cfg, prisma, userId, "passkey_added", id),
    ]);
  } catch (error) {
    if (isUniqueViolation(error)) throw passkeyRejected("This passkey is already registered here.");
    throw error;
  }
  nudgeOutbox(cfg);
  return id;
}
