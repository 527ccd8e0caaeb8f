import { createHash } from "node:crypto";
import { deleteAccessToken, issueProjectAccessToken } from "../access-tokens/issue-access-token";
import { oauthLoginRevokedRecord } from "../activity/record-activity";
import type { Config } from "../config";
import { db, inOneTransactionOfThree, statementsInOneTransaction } from "../database/db";
import { ApiError, invalidGrant } from "../errors";
import { projectUrl } from "../projects/projects";
import type { RequestOrigin } from "../request-origin";
import { hashSecret, randomId, randomSecret } from "../secrets";
import { lockMembershipStatement, projectAccess, reachableProjects, teamIdOf } from "../teams/team-access";
import { boundKey, type DpopRequest } from "./dpop";
import { refreshTokenExpiresAt } from "./login-lifetime";
import type { TokenAnswer } from "./schemas";

// Refresh tokens (RFC 6749 §6) with rotation and reuse detection (RFC 9700 §2.2.2, §4.14.2).
// A device-code exchange starts an OAuth login: a family of refresh tokens, of which one, the
// login's current token, may be used. A refresh issues a new access token and refresh token and
// makes the new one current with one conditional update of the login (`WHERE "currentTokenId" =
// <the one presented>`), so of concurrent refreshes of one token exactly one wins. A retired
// token presented again means that two parties hold the family: the login is revoked, every
// access token it issued with it, and the person's activity says so; but for the client that
// made the latest refresh, presenting the token it retired at once (a lost race). Tokens are
// stored as their SHA-256 only. A login started with a DPoP proof (RFC 9449 §5) is bound to its key: each
// refresh needs a proof of that key and answers a token bound to it.

export const REFRESH_TOKEN_PREFIX = "ilrt_";
/**
 * A client that sends one refresh twice at once (two commands of a CLI starting together) must
 * not lose its login: the token the latest refresh retired, presented again this soon after by
 * the client that made that refresh, is refused as the loser of that race, not taken for reuse.
 * The same client is the same DPoP key for a bound login, and for an unbound one the same
 * address and User-Agent: anyone else's copy is reuse however soon (RFC 9700 §4.14.2), so a
 * thief who refreshes first cannot hide behind the grace.
 */
export const CONCURRENT_REFRESH_GRACE_MS = 10_000;
const REFRESH_TOKEN_PATTERN = /^ilrt_[A-Za-z0-9_-]{43}$/;

/**
 * Why a login ended early: a retired refresh token came back, its client revoked it (RFC 7009), or
 * the person reported its approval ("This wasn't me", lib/approvals/report-approval.ts).
 */
export type RevocationReason = "reuse" | "revocation" | "report";

/** A refresh token's row with its login, as every use of one reads it. */
export type StoredRefreshToken = {
  id: string;
  createdAt: Date;
  expiresAt: Date;
  accessToken: { name: string };
  login: {
    id: string;
    clientId: string;
    userId: string;
    projectId: string;
    expiresAt: Date;
    currentTokenId: string;
    previousTokenId: string | null;
    lastRefreshedAt: Date | null;
    lastRefreshedBy: string | null;
    revokedAt: Date | null;
    dpopJkt: string | null;
  };
};

/** The stored token `token` names, or null: malformed or unknown. Reads only. */
export async function findRefreshToken(token: string): Promise<StoredRefreshToken | null> {
  if (!REFRESH_TOKEN_PATTERN.test(token)) return null;
  const prisma = await db();
  return prisma.refreshToken.findUnique({
    where: { tokenHash: hashSecret(token) },
    select: {
      id: true,
      createdAt: true,
      expiresAt: true,
      accessToken: { select: { name: true } },
      login: {
        select: {
          id: true,
          clientId: true,
          userId: true,
          projectId: true,
          expiresAt: true,
          currentTokenId: true,
          previousTokenId: true,
          lastRefreshedAt: true,
          lastRefreshedBy: true,
          revokedAt: true,
          dpopJkt: true,
        },
      },
    },
  });
}

/** Usable now to refresh: the login's current token, neither revoked nor expired. */
export function isRefreshable(token: StoredRefreshToken, now: number): boolean {
  return token.login.revokedAt === null && token.login.expiresAt.getTime() > now && token.login.currentTokenId === token.id && token.expiresAt.getTime() > now;
}

const expiresIn = (expiresAt: Date) => Math.max(1, Math.floor((expiresAt.getTime() - Date.now()) / 1000));

/** RFC 6749 §5.1's answer, with the project as additional parameters; `token_type` DPoP for an access token bound to a key (RFC 9449 §5). */
export async function tokenAnswer(cfg: Config, tokens: { accessToken: string; accessTokenExpiresAt: Date; refreshToken: string; projectId: string; dpopJkt: string | null }): Promise<TokenAnswer> {
  const teamId = await teamIdOf(tokens.projectId);
  return {
    access_token: tokens.accessToken,
    token_type: tokens.dpopJkt === null ? "Bearer" : "DPoP",
    expires_in: expiresIn(tokens.accessTokenExpiresAt),
    refresh_token: tokens.refreshToken,
    project_id: tokens.projectId,
    project_url: projectUrl(cfg, tokens.projectId),
    ...(teamId === null ? {} : { team_id: teamId }),
  };
}

type NewLogin = { clientId: string; initId: string; userId: string; projectId: string; accessTokenId: string; startedAt: number; expiresAt: Date; dpopJkt: string | null };

/** Starts the login of an exchanged device code, its first refresh token beside its first access token; returns that refresh token. */
export async function startLogin(cfg: Config, login: NewLogin): Promise<string> {
  const prisma = await db();
  const token = randomSecret(REFRESH_TOKEN_PREFIX);
  const loginId = randomId();
  const tokenId = randomId();
  const [, , , approvalStands] = await statementsInOneTransaction([
    // The approver's membership of the project's team is locked first, and the approval stands
    // below only while they still reach the project (lib/teams/team-access.ts): a removal from the
    // team either committed before, and this login is refused, or waits for it and revokes it.
    // The exchange's claim of the access token checks the same, but this login is a transaction
    // of its own: a removal between the two left the removed member a live login that refreshed
    // into new access tokens (tests/api/teams/team-races.test.ts).
    lockMembershipStatement(prisma, login.projectId, login.userId),
    prisma.oAuthLogin.create({
      data: {
        id: loginId,
        clientId: login.clientId,
        initId: login.initId,
        userId: login.userId,
        projectId: login.projectId,
        createdAt: new Date(login.startedAt),
        expiresAt: login.expiresAt,
        currentTokenId: tokenId,
        dpopJkt: login.dpopJkt,
      },
    }),
    prisma.refreshToken.create({
      data: { id: tokenId, loginId, tokenHash: hashSecret(token), accessTokenId: login.accessTokenId, createdAt: new Date(login.startedAt), expiresAt: refreshTokenExpiresAt(cfg, login.startedAt, login.expiresAt) },
    }),
    // Rewrites the init's own value, to take its row: a report of the approval ("This wasn't me",
    // lib/approvals/report-approval.ts) either committed before, and the init is denied, or
    // comes after and finds this login to revoke.
    prisma.init.updateMany({
      where: { id: login.initId, status: "done", accessTokenId: login.accessTokenId, project: { is: reachableProjects(login.userId) } },
      data: { accessTokenId: login.accessTokenId },
    }),
  ]);
  if (approvalStands.count === 1) return token;
  const removed = (await projectAccess(login.userId, login.projectId)) === null;
  await prisma.oAuthLogin.updateMany({ where: { id: loginId, revokedAt: null }, data: { revokedAt: new Date(), revokedReason: removed ? "removal" : "report" } });
  // RFC 8628 §3.5: to the client, an approval taken back before it had its tokens is a denial.
  throw new ApiError("access_denied", removed ? "The person who approved this no longer reaches the project." : "The person took this approval back.");
}

/**
 * Ends a login at once: the login, every access token issued in it and the activity event, in
 * one transaction. The login's row is written first, so a concurrent refresh's claim waits for it
 * (PostgreSQL) and then finds it revoked; a refresh claimed before has its new access token
 * among those revoked. Revoking a revoked login changes nothing.
 */
export async function revokeLogin(loginId: string, reason: RevocationReason, origin: RequestOrigin): Promise<void> {
  const prisma = await db();
  const now = new Date();
  await inOneTransactionOfThree(
    prisma.oAuthLogin.updateMany({ where: { id: loginId, revokedAt: null }, data: { revokedAt: now, revokedReason: reason } }),
    prisma.accessToken.updateMany({ where: { revokedAt: null, refreshTokens: { some: { loginId } } }, data: { revokedAt: now } }),
    oauthLoginRevokedRecord(prisma, loginId, reason === "reuse" ? "oauth_refresh_reused" : "oauth_login_revoked", origin),
  );
}

const notValid = () => invalidGrant("The refresh token is not valid for this client.");
const lostRace = () => invalidGrant("The refresh token was used by another request at the same moment.");

/** The client a refresh came from, as an unbound login tells clients apart: its address and User-Agent, hashed. */
const clientOf = (origin: RequestOrigin) => createHash("sha256").update(`${origin.address ?? ""}\n${origin.userAgent ?? ""}`).digest("base64url");

/** The token the latest refresh retired, presented within CONCURRENT_REFRESH_GRACE_MS of it by the client that made that refresh. */
function lostConcurrentRefresh(presented: StoredRefreshToken, now: number, client: string): boolean {
  const { previousTokenId, lastRefreshedAt, lastRefreshedBy, dpopJkt } = presented.login;
  // A bound login's refreshes all carried its key's proof: its key is its one client.
  const sameClient = dpopJkt !== null || lastRefreshedBy === client;
  return sameClient && previousTokenId === presented.id && lastRefreshedAt !== null && now - lastRefreshedAt.getTime() < CONCURRENT_REFRESH_GRACE_MS;
}

/**
 * What a presented token may do now: refresh (the login's current token) or, retired, reveal a
 * reuse. Every other case throws invalid_grant, having written nothing.
 */
function standing(presented: StoredRefreshToken, now: number, client: string): "current" | "retired" {
  const { login } = presented;
  if (login.revokedAt !== null) throw invalidGrant("This login has been revoked. Log in again.");
  if (login.expiresAt.getTime() <= now) throw invalidGrant("This login has expired. Log in again.");
  if (login.currentTokenId !== presented.id) {
    if (lostConcurrentRefresh(presented, now, client)) throw lostRace();
    return "retired";
  }
  if (presented.expiresAt.getTime() <= now) throw invalidGrant("The refresh token has expired unused. Log in again.");
  return "current";
}

/**
 * RFC 6749 §6: `grant_type=refresh_token`. Every refusal is invalid_grant (or, for the DPoP
 * proof, invalid_dpop_proof or use_dpop_nonce) and writes nothing, except the reuse of a retired
 * token, which revokes the login (RFC 9700 §4.14.2).
 *
 * RFC 9449 §5: a bound login's refresh takes only a proof of its key, checked before reuse is
 * decided: a bound refresh token copied without the key neither refreshes nor ends the login of
 * the client that holds the key. An unbound login stays unbound; a proof on its refresh binds
 * the new access token only (binding the login there would let whoever copied its refresh token
 * bind it to their own key, and the client's next refresh would then be refused for its proof
 * instead of revealing the reuse).
 */
export async function refreshTokenGrant(cfg: Config, refreshToken: string, clientId: string, origin: () => RequestOrigin, dpop: DpopRequest): Promise<TokenAnswer> {
  const presented = await findRefreshToken(refreshToken);
  // RFC 6749 §5.2: unknown, or issued to another client.
  if (presented === null || presented.login.clientId !== clientId) throw notValid();
  const client = clientOf(origin());
  const now = Date.now();
  const current = standing(presented, now, client) === "current";
  // The proof is checked last of the refusals that write nothing, so that it is spent (§11.1) only by a refresh or a reuse.
  const dpopJkt = await boundKey(cfg, presented.login.dpopJkt, dpop);
  if (current) {
    const answer = await rotate(cfg, presented, now, dpopJkt, client);
    if (answer !== null) return answer;
    // Another request retired it (or ended the login) since it was read: decided again, as a
    // request just after that one would be, so that another client's copy is reuse even here.
    const after = await findRefreshToken(refreshToken);
    if (after === null || standing(after, Date.now(), client) === "current") throw lostRace();
  }
  // RFC 9700 §4.14.2: a retired token in use again: the attacker's or the client's, no one can tell.
  await revokeLogin(presented.login.id, "reuse", origin());
  throw invalidGrant("This refresh token was already used, so the login has been revoked. Log in again.");
}

/**
 * The new access token and refresh token are stored first, unknown to anyone, then claimed by
 * the one conditional update that retires the presented token; a request that loses (a
 * concurrent refresh of the same token, or a revocation) deletes them unseen and gets null.
 */
async function rotate(cfg: Config, presented: StoredRefreshToken, now: number, dpopJkt: string | null, client: string): Promise<TokenAnswer | null> {
  const prisma = await db();
  const { login } = presented;
  const access = await issueProjectAccessToken(login.userId, login.projectId, presented.accessToken.name, login.expiresAt, dpopJkt);
  const token = randomSecret(REFRESH_TOKEN_PREFIX);
  const tokenId = randomId();
  await prisma.refreshToken.create({
    data: { id: tokenId, loginId: login.id, tokenHash: hashSecret(token), accessTokenId: access.id, createdAt: new Date(now), expiresAt: refreshTokenExpiresAt(cfg, now, login.expiresAt) },
  });
  const claimed = await prisma.oAuthLogin.updateMany({
    where: { id: login.id, currentTokenId: presented.id, revokedAt: null },
    data: { currentTokenId: tokenId, previousTokenId: presented.id, lastRefreshedAt: new Date(now), lastRefreshedBy: client },
  });
  if (claimed.count !== 1) {
    await prisma.refreshToken.deleteMany({ where: { id: tokenId } });
    await deleteAccessToken(access.id);
    return null;
  }
  return tokenAnswer(cfg, { accessToken: access.token, accessTokenExpiresAt: access.expiresAt, refreshToken: token, projectId: login.projectId, dpopJkt });
}
