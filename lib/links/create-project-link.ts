import type { Config } from "../config";
import { linkCreatedRecord } from "../activity/record-activity";
import { db, statementsInOneTransaction } from "../database/db";
import { lockMembershipStatement, reachesProjectSql, teamIdOf } from "../teams/team-access";
import { ApiError, notFound } from "../errors";
import { countedUnlessRefused } from "../limits/rate-limit";
import { limitRules } from "../limits/rules";
import { projectPublicKey } from "../projects/project-keys";
import type { RequestOrigin } from "../request-origin";
import { resolveProjectId } from "../projects/resolve-project";
import { randomId } from "../secrets";
import { recordTokenUse, type AuthenticatedToken } from "../access-tokens/authenticate-access-token";
import { upstreamAccount } from "../identity/upstream-account";
import { signLinkBearer } from "./link-bearer";
import type { LinkAnswer } from "./schemas";

// Create Project Link (SPEC §4.2). A link is one client of one project, named by the client's
// `iv`; its bearer is a JWT whose `sub` is the link's id. Idempotent per token: the same token
// repeating the request gets the same link (with a fresh bearer), so retries are safe; another
// token asking for the same (project, iv) is refused.

/** The success answer of Create Project Link. */
export type { LinkAnswer };

const projectNotReached = () => notFound("No project with this id exists, or the access token does not reach it.");

// The path may name the project by the id of an init approved into it (docs/api.md, Compatibility).
async function reachableProjectId(token: AuthenticatedToken, projectId: string): Promise<string> {
  const project = await resolveProjectId(projectId, token.userId);
  if (project === null || (token.projectId !== null && token.projectId !== project)) throw projectNotReached();
  return project;
}

type ExistingLink = { id: string; accessTokenId: string; revokedAt: Date | null };

/** An existing (project, iv) link is this token's retry, or a conflict. */
function reuse(link: ExistingLink, token: AuthenticatedToken): string {
  if (link.accessTokenId !== token.id) throw new ApiError("link_conflict", "Another client already uses this iv for this project. Choose a new random iv.");
  if (link.revokedAt !== null) throw new ApiError("link_revoked", "This link has been revoked. Choose a new random iv to link again.");
  return link.id;
}

export async function createProjectLink(cfg: Config, token: AuthenticatedToken, projectId: string, iv: string, origin: RequestOrigin): Promise<LinkAnswer> {
  const project = await reachableProjectId(token, projectId);
  const prisma = await db();
  const where = { projectId_iv: { projectId: project, iv } };
  const select = { id: true, accessTokenId: true, revokedAt: true };
  const existing = await prisma.projectLink.findUnique({ where, select });
  const retriedLinkId = existing === null ? null : reuse(existing, token);
  // A unit is taken before the work, so concurrent requests never overshoot, and given back if
  // the request is refused after all (it lost the race for this (project, iv) to another token:
  // 409; the key is not ready: 503): only links made or reused count.
  // The link and its event in the account's activity commit together. A concurrent request
  // that made the link first wins by the unique (project, iv): this insert then skips, and so
  // does the event, which names this request's link id.
  const newLink = async (): Promise<string> => {
    const id = randomId();
    // The token's person must still reach the project when the link is made: a team project's
    // membership is locked first, so a removal racing this request revokes the link or refuses it.
    const [, inserted] = await statementsInOneTransaction([
      lockMembershipStatement(prisma, project, token.userId),
      prisma.$executeRaw`
        INSERT INTO "ProjectLink" ("id", "projectId", "iv", "accessTokenId", "userAgent", "createdAt")
        SELECT ${id}, ${project}, ${iv}, ${token.id}, ${origin.userAgent}, ${new Date()}
        WHERE EXISTS (SELECT 1 FROM "Project" p WHERE p."id" = ${project} AND ${reachesProjectSql("p", token.userId)})
        ON CONFLICT DO NOTHING`,
      linkCreatedRecord(prisma, id, origin.address),
    ]);
    if (inserted === 1) return id;
    const existing = await prisma.projectLink.findUnique({ where, select });
    if (existing === null) throw projectNotReached();
    return reuse(existing, token);
  };
  const { key, linkId } = await countedUnlessRefused(limitRules(cfg).linksPerToken, token.id, async () => {
    // Never a link without a key: this waits for a key still being generated.
    const publicKey = await projectPublicKey(cfg, project);
    return { key: publicKey, linkId: retriedLinkId ?? (await newLink()) };
  });
  await recordTokenUse(token.id);
  // A bearer never outlives the access token that made it.
  const lifetimeEnd = Date.now() + cfg.linkLifetimeMs;
  const expiresAt = new Date(token.expiresAt === null ? lifetimeEnd : Math.min(lifetimeEnd, token.expiresAt.getTime()));
  const upstream = await upstreamAccount(cfg, token.userId);
  const bearer = await signLinkBearer(cfg, { linkId, projectId: project, teamId: await teamIdOf(project), clientId: token.id, accountId: token.userId, upstream, expiresAt });
  return { success: true, bearer: `Bearer ${bearer}`, public: key.pem, public_fingerprint: key.fingerprint, link_id: linkId, expires_at: Math.floor(expiresAt.getTime() / 1000) * 1000 };
}
