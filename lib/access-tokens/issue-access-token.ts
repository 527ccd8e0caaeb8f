import { accessTokenRecord } from "../activity/record-activity";
import { db, inOneTransaction } from "../database/db";
import { notFound } from "../errors";
import { TOKEN_NAME_MAX } from "../field-lengths";
import { findReachableProject } from "../projects/projects";
import { hashSecret, randomId, randomSecret } from "../secrets";
import type { NewToken } from "./schemas";

// Access tokens: the API credential of Create Project Link. Two sources: the token the
// initiating client collects after approval (scoped to its project), and tokens a person makes
// on the settings page. Only the SHA-256 is stored; the token is shown once.

// A recognisable prefix lets secret scanners find leaked tokens.
export const ACCESS_TOKEN_PREFIX = "ilat_";

const DAY_MS = 24 * 60 * 60 * 1000;

/** How much of a token the list shows: the prefix and 4 characters, 24 of its 256 random bits. */
export const SHOWN_TOKEN_LENGTH = ACCESS_TOKEN_PREFIX.length + 4;

export type IssuedAccessToken = { id: string; token: string; expiresAt: Date | null };

/** Stores a new token; one the person makes themselves is recorded in their activity with it. */
async function storeToken(userId: string, projectId: string | null, name: string, expiresAt: Date | null, inActivity: boolean, dpopJkt: string | null = null): Promise<IssuedAccessToken> {
  const prisma = await db();
  const token = randomSecret(ACCESS_TOKEN_PREFIX);
  const id = randomId();
  const created = prisma.accessToken.create({
    data: { id, tokenHash: hashSecret(token), prefix: token.slice(0, SHOWN_TOKEN_LENGTH), name: name.slice(0, TOKEN_NAME_MAX), userId, projectId, createdAt: new Date(), expiresAt, dpopJkt },
  });
  if (inActivity) await inOneTransaction(created, accessTokenRecord(prisma, id, "access_token_created"));
  else await created;
  return { id, token, expiresAt };
}

/**
 * The token a client collects after its init is approved: one project, until `expiresAt`
 * (lib/init/access-lifetime.ts); bound to the DPoP key whose thumbprint is `dpopJkt` (RFC 9449), if
 * one is given.
 */
export async function issueProjectAccessToken(userId: string, projectId: string, name: string, expiresAt: Date, dpopJkt: string | null): Promise<IssuedAccessToken & { expiresAt: Date }> {
  // The activity records what it is for: its collection (lib/init/token-pickup.ts) or its link.
  return { ...(await storeToken(userId, projectId, name, expiresAt, false, dpopJkt)), expiresAt };
}

/** What the new-token form gets back: the token itself, this once and never again. */
export type NewTokenAnswer = { id: string; token: string; name: string; expires_at: number | null };

/** A token made on the settings page, for all the person's projects or one of them. */
export async function createAccessToken(userId: string, input: NewToken): Promise<NewTokenAnswer> {
  let projectId: string | null = null;
  if (input.scope !== "all") {
    const project = await findReachableProject(userId, input.scope);
    if (project === null) throw notFound("You have no project with this id.");
    projectId = project.id;
  }
  const expiresAt = input.lifetime === "never" ? null : new Date(Date.now() + Number(input.lifetime) * DAY_MS);
  const issued = await storeToken(userId, projectId, input.name, expiresAt, true);
  return { id: issued.id, token: issued.token, name: input.name, expires_at: issued.expiresAt?.getTime() ?? null };
}

/** Deletes a token no one has seen (the loser of a pickup race). */
export async function deleteAccessToken(id: string): Promise<void> {
  const prisma = await db();
  await prisma.accessToken.deleteMany({ where: { id } });
}
