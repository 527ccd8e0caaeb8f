import { randomBytes } from "node:crypto";
import { decodeClientDataJSON } from "@simplewebauthn/server/helpers";
import { db } from "../database/db";
import { passkeyRejected } from "../errors";
import { hashSecret, randomId } from "../secrets";

// WebAuthn challenges (W3C WebAuthn Level 3 §13.4.3: random, at least 16 bytes, used once).
// The server keeps only each challenge's SHA-256 with what it was handed out for: the purpose,
// the account (none for a passkey sign-in, whose account the credential names) and the subject
// (the approval a step-up is for). Using one deletes its row in the same statement that checks
// it, so of two requests presenting it at most one gets it, and a challenge used for one thing
// cannot be used for another.

/** How long a challenge may be answered: a person confirms with their passkey in seconds. */
export const CHALLENGE_LIFETIME_MS = 5 * 60_000;

export type ChallengePurpose = "register" | "sign_in" | "step_up";

export type ChallengeBinding = { purpose: ChallengePurpose; userId: string | null; subject: string | null };

/** A new challenge for `binding`, base64url (what the options and the clientDataJSON carry). */
export async function issueChallenge(binding: ChallengeBinding, now = Date.now()): Promise<string> {
  const challenge = randomBytes(32).toString("base64url");
  const prisma = await db();
  await prisma.passkeyChallenge.create({
    data: { id: randomId(), challengeHash: hashSecret(challenge), ...binding, expiresAt: new Date(now + CHALLENGE_LIFETIME_MS) },
  });
  return challenge;
}

/** Uses `challenge` up if it was handed out for exactly `binding` and has not expired; true if this call used it. */
export async function useChallenge(challenge: string, binding: ChallengeBinding, now = Date.now()): Promise<boolean> {
  const prisma = await db();
  const used = await prisma.passkeyChallenge.deleteMany({
    where: { challengeHash: hashSecret(challenge), purpose: binding.purpose, userId: binding.userId, subject: binding.subject, expiresAt: { gt: new Date(now) } },
  });
  return used.count === 1;
}

/**
 * Uses up the challenge a browser's answer (its clientDataJSON, base64url) says it answers, and
 * returns it; refused unless it was handed out for `binding` and is unused and unexpired. The
 * challenge goes before anything else is checked, so an answer refused later cannot be retried.
 */
export async function useAnsweredChallenge(clientDataJSON: string, binding: ChallengeBinding): Promise<string> {
  let challenge: string;
  try {
    challenge = decodeClientDataJSON(clientDataJSON).challenge;
  } catch {
    throw passkeyRejected("The passkey's answer carries no readable client data.");
  }
  if (typeof challenge !== "string" || !(await useChallenge(challenge, binding))) {
    throw passkeyRejected("The passkey answered a challenge that is unknown, used, expired or for something else. Try again.");
  }
  return challenge;
}

/** Deletes the challenges nobody answered (the maintenance sweep). */
export async function sweepPasskeyChallenges(now: number): Promise<number> {
  const prisma = await db();
  return (await prisma.passkeyChallenge.deleteMany({ where: { expiresAt: { lt: new Date(now) } } })).count;
}
