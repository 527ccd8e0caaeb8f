import { generateAuthenticationOptions, type AuthenticationResponseJSON, type PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/server";
import { isoBase64URL } from "@simplewebauthn/server/helpers";
import { startSession } from "../auth/sessions";
import type { Config } from "../config";
import { addressSubject, consumeRateLimit } from "../limits/rate-limit";
import { limitRules } from "../limits/rules";
import type { RequestOrigin } from "../request-origin";
import { issueChallenge } from "./challenges";
import { relyingParty } from "./relying-party";
import { verifyAssertion } from "./verify-assertion";

// Signing in with a passkey on /signin, no email or password: the options name no credential
// (the browser offers the person's discoverable passkeys for this RP ID), and the passkey that
// answers names the account. Each request for options writes a challenge, so it counts against
// the address as a sign-in attempt does.

export async function signInOptions(cfg: Config, origin: RequestOrigin): Promise<PublicKeyCredentialRequestOptionsJSON> {
  await consumeRateLimit(limitRules(cfg).authPerAddress, addressSubject(origin.address));
  const challenge = await issueChallenge({ purpose: "sign_in", userId: null, subject: null });
  return generateAuthenticationOptions({ rpID: relyingParty(cfg).id, challenge: isoBase64URL.toBuffer(challenge), userVerification: "required" });
}

/** Returns the new session's token; `origin` is the signing-in browser's request, kept with the session. */
export async function signInWithPasskey(cfg: Config, response: AuthenticationResponseJSON, origin: RequestOrigin): Promise<string> {
  const { userId } = await verifyAssertion(cfg, response, { purpose: "sign_in", userId: null, subject: null });
  return startSession(cfg, userId, origin);
}
