import type { Config } from "../config";
import { db } from "../database/db";
import { directSql, timestampMs } from "../database/direct-sql";
import { ApiError, authorizationPending, invalidGrant, slowDown } from "../errors";
import { INIT_SECRET_PREFIX } from "../init/create-init";
import { effectiveStatus } from "../init/init-lifecycle";
import { admitPoll } from "../init/poll-interval";
import { claimAccessToken } from "../init/token-pickup";
import type { RequestOrigin } from "../request-origin";
import { hashSecret } from "../secrets";
import { acceptDpopProof, boundKey, readBoundProof, type DpopRequest } from "./dpop";
import { loginExpiresAt } from "./login-lifetime";
import { refreshTokenGrant, startLogin, tokenAnswer } from "./refresh-tokens";
import { exchangeAuthorizationCode } from "./authorization-code";
import { AUTHORIZATION_CODE_GRANT, DEVICE_CODE_GRANT, REFRESH_TOKEN_GRANT, type TokenAnswer, type TokenBody } from "./schemas";

// The token endpoint (RFC 6749 §3.2) and its device-code grant (RFC 8628 §3.4–3.5); the
// refresh-token grant is lib/oauth/refresh-tokens.ts, the authorization-code grant lib/oauth/authorization-code.ts. The device code is the init's secret: the
// grant reads the init by its hash, keeps the init's poll clock (the secret holder's, shared with
// the status resource), and on approval claims the init's one access token, as the status
// resource's pickup does, and starts the OAuth login whose first refresh token it answers too.
// Every refusal is an OAuth error and writes nothing, except slow_down's longer interval, which
// §3.5 makes the client keep, and the clock of a poll refused for its DPoP proof's signature,
// checked once the clock has admitted the poll. A request with a DPoP proof (RFC 9449 §5) gets
// a token bound to its key, and so does the login it starts (its refreshes need proofs of that
// key); a device code whose authorization carried a proof takes only proofs of that key.

/** RFC 8628 §3.5: each slow_down adds 5 seconds to the interval the client must keep. */
export const SLOW_DOWN_STEP_MS = 5000;
/** The interval stops growing here: a client past it is slow enough. */
export const MAX_INTERVAL_MS = 60_000;

type GrantRow = {
  id: string;
  status: string;
  intervalMs: number;
  expiresAt: Date;
  sender: string;
  senderDevice: string | null;
  projectId: string | null;
  approvedById: string | null;
  accessTokenId: string | null;
  accessLifetimeSeconds: number | null;
  dpopJkt: string | null;
};
type StoredGrantRow = Omit<GrantRow, "intervalMs" | "expiresAt" | "accessLifetimeSeconds"> & { intervalMs: number | string; expiresAt: string; accessLifetimeSeconds: number | string | null };

// Read on every poll, so on the driver itself (lib/database/direct-sql.ts).
const GRANT_ROW = `SELECT "id", "status", "intervalMs", "expiresAt", "sender", "senderDevice", "projectId", "approvedById", "accessTokenId", "accessLifetimeSeconds", "dpopJkt" FROM "Init" WHERE "secretHash" = ?`;

async function readGrant(deviceCode: string): Promise<GrantRow | null> {
  if (!deviceCode.startsWith(INIT_SECRET_PREFIX)) return null;
  const sql = await directSql();
  const row = await sql.one<StoredGrantRow>(GRANT_ROW, [hashSecret(deviceCode)]);
  if (row === undefined) return null;
  const accessLifetimeSeconds = row.accessLifetimeSeconds === null ? null : Number(row.accessLifetimeSeconds);
  return { ...row, intervalMs: Number(row.intervalMs), expiresAt: new Date(timestampMs(row.expiresAt)), accessLifetimeSeconds };
}

const missing = (name: string) => new ApiError("invalid_request", `${name} is required.`, { fields: [{ field: name, message: "is required" }] });

/** A token request: the grant its grant_type names, or unsupported_grant_type. */
export async function requestToken(cfg: Config, body: TokenBody, origin: () => RequestOrigin, dpop: DpopRequest): Promise<TokenAnswer> {
  if (body.grant_type === REFRESH_TOKEN_GRANT) {
    // RFC 6749 §6: refresh_token, and client_id from a client that does not authenticate (§3.2.1).
    if (body.refresh_token === undefined) throw missing("refresh_token");
    if (body.client_id === undefined) throw missing("client_id");
    return refreshTokenGrant(cfg, body.refresh_token, body.client_id, origin, dpop);
  }
  if (body.grant_type === AUTHORIZATION_CODE_GRANT) {
    // RFC 6749 §4.1.3 with RFC 7636 §4.5: code, redirect_uri, client_id and code_verifier.
    const { code, redirect_uri: redirectUri, client_id: clientId, code_verifier: codeVerifier } = body;
    if (code === undefined) throw missing("code");
    if (redirectUri === undefined) throw missing("redirect_uri");
    if (clientId === undefined) throw missing("client_id");
    if (codeVerifier === undefined) throw missing("code_verifier");
    return exchangeAuthorizationCode(cfg, { code, redirectUri, clientId, codeVerifier }, origin, dpop);
  }
  if (body.grant_type !== DEVICE_CODE_GRANT) throw new ApiError("unsupported_grant_type", `grant_type must be ${AUTHORIZATION_CODE_GRANT}, ${DEVICE_CODE_GRANT} or ${REFRESH_TOKEN_GRANT}.`);
  // RFC 8628 §3.4: device_code, and client_id from a client that does not authenticate.
  if (body.device_code === undefined) throw missing("device_code");
  if (body.client_id === undefined) throw missing("client_id");
  return exchangeDeviceCode(cfg, body.device_code, body.client_id, origin, dpop);
}

async function exchangeDeviceCode(cfg: Config, deviceCode: string, clientId: string, origin: () => RequestOrigin, dpop: DpopRequest): Promise<TokenAnswer> {
  const grant = await readGrant(deviceCode);
  // RFC 6749 §5.2: unknown, or issued to another client.
  if (grant === null || grant.sender !== clientId) throw invalidGrant("The device code is not valid for this client.");
  const now = Date.now();
  const status = effectiveStatus(grant.status, grant.expiresAt, now);
  if (status === "expired") throw new ApiError("expired_token", "The device code has expired. Start again.");
  if (status === "denied") throw new ApiError("access_denied", "The person denied this request.");
  // RFC 9449 §5: the proof is checked last, so that it is spent (§11.1) only by a poll or the
  // exchange; a poll's signature and jti only once the clock admits it, so a slow_down costs neither.
  if (status === "pending") {
    const proof = await readBoundProof(cfg, grant.dpopJkt, dpop);
    await admitDevicePoll(grant, now);
    if (proof !== null) await acceptDpopProof(proof);
    throw authorizationPending();
  }
  if (grant.accessTokenId !== null || grant.projectId === null || grant.approvedById === null) throw invalidGrant("The device code was already exchanged.");
  const dpopJkt = await boundKey(cfg, grant.dpopJkt, dpop);
  const approval = {
    initId: grant.id,
    sender: grant.sender,
    senderDevice: grant.senderDevice,
    projectId: grant.projectId,
    approvedById: grant.approvedById,
    accessLifetimeSeconds: grant.accessLifetimeSeconds,
    dpopJkt,
  };
  const startedAt = Date.now();
  const expiresAt = loginExpiresAt(cfg, grant.accessLifetimeSeconds, startedAt);
  const issued = await claimAccessToken(approval, origin(), expiresAt);
  // The person reported the approval between the read above and the claim.
  if (issued === "denied") throw new ApiError("access_denied", "The person took this approval back.");
  // RFC 6749 §4.1.2's rule for codes, kept for device codes: exchanged exactly once.
  if (issued === "collected") throw invalidGrant("The device code was already exchanged.");
  // RFC 6749 §5.1: the refresh token that keeps the client logged in, the first of its login;
  // RFC 9449 §5: bound, with the whole login, to the key its access token is bound to.
  const refreshToken = await startLogin(cfg, { clientId, initId: grant.id, userId: grant.approvedById, projectId: grant.projectId, accessTokenId: issued.id, startedAt, expiresAt, dpopJkt });
  return tokenAnswer(cfg, { accessToken: issued.token, accessTokenExpiresAt: issued.expiresAt, refreshToken, projectId: grant.projectId, dpopJkt });
}

/** RFC 8628 §3.5: a pending poll sooner than the interval is slow_down, and the interval grows by 5 s. */
async function admitDevicePoll(grant: GrantRow, now: number): Promise<void> {
  try {
    await admitPoll(grant.id, { kind: "secret_holder" }, grant.intervalMs, now);
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== "slow_down") throw error;
    // Each slow_down adds its 5 s, as the client adds them, concurrent ones included.
    const prisma = await db();
    await prisma.init.updateMany({ where: { id: grant.id, status: "pending", intervalMs: { lte: MAX_INTERVAL_MS - SLOW_DOWN_STEP_MS } }, data: { intervalMs: { increment: SLOW_DOWN_STEP_MS } } });
    const longer = Math.min(grant.intervalMs + SLOW_DOWN_STEP_MS, MAX_INTERVAL_MS);
    throw slowDown(longer, longer);
  }
}
