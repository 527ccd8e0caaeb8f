import { db } from "../database/db";
import { clientAuthenticationFailed } from "../errors";
import { secretMatchesHash } from "../secrets";
import { hasRole } from "../teams/roles";
import { projectAccess } from "../teams/team-access";

// A resource server's credential at introspection (RFC 7662 §2.1), as a confidential client
// authenticates with client_secret_basic (RFC 6749 §2.3.1): its client_id names the row, and its
// secret must match the stored SHA-256, compared in constant time. Reads only: a refusal writes
// nothing.

export const RESOURCE_SERVER_ID_PREFIX = "ilrs_";
export const RESOURCE_SERVER_SECRET_PREFIX = "ilrss_";
export const RESOURCE_SERVER_ID_PATTERN = /^ilrs_[A-Za-z0-9_-]{22}$/;

/** A credential whose secret matched and that is not revoked. */
export type AuthenticatedResourceServer = { id: string };

const NOT_VALID = "The resource-server credential is not valid: check its client_id and secret.";

/** The credential of `clientId` if `clientSecret` is its secret and it is not revoked; RFC 6749 §5.2's invalid_client otherwise. */
export async function authenticateResourceServer(clientId: string, clientSecret: string): Promise<AuthenticatedResourceServer> {
  // Ids are ours: anything else names no credential, and never reaches the database.
  if (!RESOURCE_SERVER_ID_PATTERN.test(clientId)) throw clientAuthenticationFailed(NOT_VALID);
  const prisma = await db();
  const row = await prisma.resourceServerCredential.findUnique({ where: { id: clientId }, select: { id: true, secretHash: true, revokedAt: true } });
  if (row === null || !secretMatchesHash(clientSecret, row.secretHash)) throw clientAuthenticationFailed(NOT_VALID);
  if (row.revokedAt !== null) throw clientAuthenticationFailed("This resource-server credential has been revoked.");
  return { id: row.id };
}

// Last use is for people, within minutes (as sessions' last seen): a resource server that
// introspects every request writes at most once in this time.
const LAST_USED_RESOLUTION_MS = 5 * 60_000;

/** Notes that an introspection with this credential was answered: one conditional update. */
export async function recordResourceServerUse(id: string): Promise<void> {
  const prisma = await db();
  const now = Date.now();
  await prisma.resourceServerCredential.updateMany({
    where: { id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lte: new Date(now - LAST_USED_RESOLUTION_MS) } }] },
    data: { lastUsedAt: new Date(now) },
  });
}

/**
 * Whether the credential may check the tokens of `projectId`: one of the projects it was made
 * for, while the person who made it still manages that project (its owner, or an admin of its team).
 */
export async function resourceServerReaches(id: string, projectId: string): Promise<boolean> {
  const prisma = await db();
  const scope = await prisma.resourceServerProject.findUnique({ where: { credentialId_projectId: { credentialId: id, projectId } }, select: { credential: { select: { userId: true } } } });
  if (scope === null) return false;
  const access = await projectAccess(scope.credential.userId, projectId);
  return access !== null && hasRole(access.role, "admin");
}
