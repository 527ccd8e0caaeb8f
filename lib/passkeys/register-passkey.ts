import {
  generateRegistrationOptions,
  verifyRegistrationResponse,
  type PublicKeyCredentialCreationOptionsJSON,
  type RegistrationResponseJSON,
  type WebAuthnCredential,
} from "@simplewebauthn/server";
import { isoBase64URL } from "@simplewebauthn/server/helpers";
import { passkeyRecord } from "../activity/record-activity";
import type { SessionUser } from "../auth/sessions";
import type { Config } from "../config";
import { db, inOneTransaction, isUniqueViolation } from "../database/db";
import { ApiError, passkeyRejected } from "../errors";
import { consumeRateLimit } from "../limits/rate-limit";
import { limitRules, PASSKEYS_PER_ACCOUNT } from "../limits/rules";
import { randomId } from "../secrets";
import { issueChallenge, useAnsweredChallenge } from "./challenges";
import { RP_NAME, relyingParty } from "./relying-party";

// Adding a passkey on /settings/passkeys (W3C WebAuthn Level 3 §7.1, verified by
// SimpleWebAuthn): the options name this service, the account and the passkeys it already has
// (so one authenticator is not added twice), and ask for a discoverable credential (sign-in
// without an email) with user verification. The answer must be for a challenge handed to this
// account for registration, made on this origin; it is stored with its name and recorded in the
// activity, in one transaction.

export async function registrationOptions(cfg: Config, user: SessionUser): Promise<PublicKeyCredentialCreationOptionsJSON> {
  await consumeRateLimit(limitRules(cfg).passkeyChallengesPerAccount, user.id);
  const prisma = await db();
  const existing = await prisma.passkey.findMany({ where: { userId: user.id }, select: { credentialId: true, transports: true } });
  const challenge = await issueChallenge({ purpose: "register", userId: user.id, subject: null });
  return generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: relyingParty(cfg).id,
    userName: user.email,
    // The account's id, not its email: the authenticator keeps it as the passkey's user handle.
    userID: new TextEncoder().encode(user.id),
    challenge: isoBase64URL.toBuffer(challenge),
    attestationType: "none",
    excludeCredentials: existing.map((passkey) => ({ id: passkey.credentialId, transports: passkey.transports?.split(",") })),
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
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

export async function addPasskey(cfg: Config, userId: string, name: string, response: RegistrationResponseJSON): Promise<string> {
  const prisma = await db();
  if ((await prisma.passkey.count({ where: { userId } })) >= PASSKEYS_PER_ACCOUNT) {
    throw new ApiError("passkey_limit_reached", `An account may have at most ${PASSKEYS_PER_ACCOUNT} passkeys. Remove one first.`);
  }
  const challenge = await useAnsweredChallenge(response.response.clientDataJSON, { purpose: "register", userId, subject: null });
  const credential = await verifiedCredential(cfg, response, challenge);
  const id = randomId();
  try {
    await inOneTransaction(
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
      passkeyRecord(prisma, id, "passkey_added"),
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw passkeyRejected("This passkey is already registered here.");
    throw error;
  }
  return id;
}
