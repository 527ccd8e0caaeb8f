import { verifyAuthenticationResponse, type AuthenticationResponseJSON } from "@simplewebauthn/server";
import { isoBase64URL } from "@simplewebauthn/server/helpers";
import type { Config } from "../config";
import { db } from "../database/db";
import { passkeyRejected } from "../errors";
import { useAnsweredChallenge, type ChallengeBinding } from "./challenges";
import { relyingParty } from "./relying-party";

// A passkey's assertion (W3C WebAuthn Level 3 §7.2, verified by SimpleWebAuthn): made for a
// challenge this service handed out for `binding` and not yet used, on this origin (APP_URL) and
// RP ID, with the person verified (PIN or biometric, not mere presence), signed by a passkey
// registered here (of the binding's account, if it names one), and with a signature counter
// that went up (or stays 0, for authenticators that keep none). The challenge is used up first,
// so a refused assertion cannot be tried again.

export type VerifiedAssertion = { userId: string; passkeyId: string };

export async function verifyAssertion(cfg: Config, response: AuthenticationResponseJSON, binding: ChallengeBinding): Promise<VerifiedAssertion> {
  const challenge = await useAnsweredChallenge(response.response.clientDataJSON, binding);
  const prisma = await db();
  const passkey = await prisma.passkey.findUnique({ where: { credentialId: response.id } });
  if (passkey === null || (binding.userId !== null && passkey.userId !== binding.userId)) {
    throw passkeyRejected("This passkey is not registered to your account here (or was removed).");
  }
  // §7.2 step 6: a user handle, when the authenticator gives one, is the account the passkey was made for (its id, lib/passkeys/register-passkey.ts).
  const { userHandle } = response.response;
  if (userHandle !== undefined && userHandle !== isoBase64URL.fromUTF8String(passkey.userId)) throw passkeyRejected("The passkey names another account.");
  const rp = relyingParty(cfg);
  let newCounter: number;
  try {
    const verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
      credential: {
        id: passkey.credentialId,
        publicKey: isoBase64URL.toBuffer(passkey.publicKey),
        counter: Number(passkey.counter),
        transports: passkey.transports?.split(",") ?? undefined,
      },
    });
    if (!verified.verified) throw new Error("The signature does not verify.");
    newCounter = verified.authenticationInfo.newCounter;
  } catch (error) {
    throw passkeyRejected(`The passkey's answer was refused: ${error instanceof Error ? error.message : "it does not verify"}`);
  }
  // The counter read above, still in place: two answers cannot both move it forward from it.
  const moved = await prisma.passkey.updateMany({
    where: { id: passkey.id, counter: passkey.counter },
    data: { counter: BigInt(newCounter), lastUsedAt: new Date() },
  });
  if (moved.count !== 1) throw passkeyRejected("This passkey was used at the same moment elsewhere. Try again.");
  return { userId: passkey.userId, passkeyId: passkey.id };
}
