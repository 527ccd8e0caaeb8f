import { createHash, timingSafeEqual } from "node:crypto";
import type { Config } from "../config";
import { db } from "../database/db";
import { ApiError, invalidGrant } from "../errors";
import type { InitStatus } from "../init/init-lifecycle";
import { claimAccessToken } from "../init/token-pickup";
import type { RequestOrigin } from "../request-origin";
import { hashSecret } from "../secrets";
import { AUTHORIZATION_CODE_PREFIX, unsealedCode } from "../init/authorization-code";
import { acceptDpopProof, readBoundProof, type DpopRequest } from "./dpop";
import { loginExpiresAt } from "./login-lifetime";
import { revokeLogin, startLogin, tokenAnswer } from "./refresh-tokens";
import { authorizationResponse } from "./redirect-uri";
import type { TokenAnswer } from "./schemas";

// The authorization code (RFC 6749 §4.1.2–4.1.3) of an approved authorization request
// (lib/oauth/authorization-request.ts). The approval mints it in its own transaction
// (lib/init/authorization-code.ts); the approving person's page carries it to the client's
// loopback redirect URI (a navigation the page's form-action policy would refuse to a form's
// redirect); the client exchanges it once,
// within 60 s, with the PKCE verifier (RFC 7636 §4.6), the same redirect URI and client_id, and a
// proof of the key dpop_jkt named (RFC 9449 §10). What it gets is what the device grant gives:
// the approval's access token and the first refresh token of a login. A second use revokes that
// login (RFC 6749 §4.1.2).

/**
 * Where the init page sends the browser of an authorization request, as `viewerId` may see it:
 * the code for its approver while it is unused and alive, access_denied for the person who
 * denied it or, once it expired, anyone signed in; `returned` once the code was used (a page
 * opened again must not send it twice: a second use revokes the login), `lapsed` once it ended unused.
 */
export type ClientReturn =
  | { kind: "pending"; redirectTo: string }
  | { kind: "go"; redirectTo: string; url: string }
  | { kind: "returned" | "lapsed" | "hidden"; redirectTo: string };

type Decided = { status: InitStatus; approvedById: string | null; deniedById: string | null };

/** The init's authorization request as its page shows it; null for an init of another kind. */
export async function clientReturn(cfg: Config, initId: string, init: Decided, viewerId: string | null): Promise<ClientReturn | null> {
  const prisma = await db();
  const request = await prisma.authorizationRequest.findUnique({ where: { initId } });
  if (request === null) return null;
  const redirectTo = new URL(request.redirectUri).host;
  const answer = (parameters: Record<string, string>) => authorizationResponse(request.redirectUri, { ...parameters, state: request.state, iss: cfg.appUrl });
  if (init.status === "pending") return { kind: "pending", redirectTo };
  if (viewerId === null) return { kind: "hidden", redirectTo };
  if (init.status === "denied" && init.deniedById === viewerId) {
    return { kind: "go", redirectTo, url: answer({ error: "access_denied", error_description: "The person denied the request." }) };
  }
  if (init.status === "expired") return { kind: "go", redirectTo, url: answer({ error: "access_denied", error_description: "The request expired before the person approved it." }) };
  if (init.status !== "done" || init.approvedById !== viewerId) return { kind: "hidden", redirectTo };
  if (request.codeUsedAt !== null) return { kind: "returned", redirectTo };
  if (request.sealedCode === null || request.codeExpiresAt === null || request.codeExpiresAt.getTime() <= Date.now()) return { kind: "lapsed", redirectTo };
  const code = unsealedCode(cfg, initId, request.sealedCode);
  return { kind: "go", redirectTo, url: answer({ code }) };
}

/** RFC 7636 §4.1: 43 to 128 characters of the unreserved set. */
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

/** RFC 7636 §4.6: BASE64URL(SHA256(ASCII(code_verifier))) equals the challenge, compared in constant time. */
function verifierMatches(verifier: string, challenge: string): boolean {
  if (!VERIFIER.test(verifier)) return false;
  const computed = Buffer.from(createHash("sha256").update(verifier, "ascii").digest("base64url"));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

export type CodeExchange = { code: string; redirectUri: string; clientId: string; codeVerifier: string };

const notValid = () => invalidGrant("The authorization code is not valid for this client, redirect URI and code verifier.");

async function findCode(code: string) {
  if (!code.startsWith(AUTHORIZATION_CODE_PREFIX)) return null;
  const prisma = await db();
  return prisma.authorizationRequest.findUnique({
    where: { codeHash: hashSecret(code) },
    select: {
      initId: true,
      redirectUri: true,
      codeChallenge: true,
      codeExpiresAt: true,
      codeUsedAt: true,
      init: { select: { status: true, sender: true, senderDevice: true, projectId: true, approvedById: true, accessLifetimeSeconds: true, dpopJkt: true } },
    },
  });
}

/**
 * RFC 6749 §4.1.3: `grant_type=authorization_code`. Every refusal is invalid_grant (or the DPoP
 * proof's error) and writes nothing, except a code presented again: that revokes the login its
 * first use started.
 */
export async function exchangeAuthorizationCode(cfg: Config, exchange: CodeExchange, origin: () => RequestOrigin, dpop: DpopRequest): Promise<TokenAnswer> {
  const found = await findCode(exchange.code);
  if (found === null) throw notValid();
  const { init } = found;
  // §4.1.3: issued to this client, for this redirect URI; RFC 7636 §4.6: to the holder of the verifier.
  if (init.sender !== exchange.clientId || found.redirectUri !== exchange.redirectUri || !verifierMatches(exchange.codeVerifier, found.codeChallenge)) throw notValid();
  if (found.codeUsedAt !== null) throw await replayed(found.initId, origin());
  const now = Date.now();
  if (found.codeExpiresAt === null || found.codeExpiresAt.getTime() <= now) throw invalidGrant("The authorization code has expired. Log in again.");
  if (init.status !== "done" || init.projectId === null || init.approvedById === null) throw invalidGrant("The person took this approval back.");
  // RFC 9449 §10: a code whose request named dpop_jkt takes only a proof of that key; spent once the code is known good.
  const proof = await readBoundProof(cfg, init.dpopJkt, dpop);
  const dpopJkt = proof === null ? null : await acceptDpopProof(proof);
  const prisma = await db();
  const used = await prisma.authorizationRequest.updateMany({
    where: { initId: found.initId, codeUsedAt: null, codeExpiresAt: { gt: new Date(now) } },
    data: { codeUsedAt: new Date(now), sealedCode: null },
  });
  // Another request used it first: the same code twice.
  if (used.count !== 1) throw await replayed(found.initId, origin());
  const approval = {
    initId: found.initId,
    sender: init.sender,
    senderDevice: init.senderDevice,
    projectId: init.projectId,
    approvedById: init.approvedById,
    accessLifetimeSeconds: init.accessLifetimeSeconds,
    dpopJkt,
  };
  const startedAt = Date.now();
  const expiresAt = loginExpiresAt(cfg, init.accessLifetimeSeconds, startedAt);
  const issued = await claimAccessToken(approval, origin(), expiresAt);
  if (issued === "denied") throw invalidGrant("The person took this approval back.");
  if (issued === "collected") throw notValid();
  const refreshToken = await startLogin(cfg, { clientId: exchange.clientId, initId: found.initId, userId: init.approvedById, projectId: init.projectId, accessTokenId: issued.id, startedAt, expiresAt, dpopJkt });
  // A second use that came while this one was issuing found no login to revoke yet: this one revokes it.
  const after = await prisma.authorizationRequest.findUnique({ where: { initId: found.initId }, select: { codeReplayedAt: true } });
  if (after?.codeReplayedAt) throw await replayed(found.initId, origin());
  return tokenAnswer(cfg, { accessToken: issued.token, accessTokenExpiresAt: issued.expiresAt, refreshToken, projectId: init.projectId, dpopJkt });
}

/** RFC 6749 §4.1.2: the code was used before; the login (and its access tokens) that use started is revoked. */
async function replayed(initId: string, origin: RequestOrigin): Promise<ApiError> {
  const prisma = await db();
  await prisma.authorizationRequest.updateMany({ where: { initId, codeReplayedAt: null }, data: { codeReplayedAt: new Date() } });
  const logins = await prisma.oAuthLogin.findMany({ where: { initId, revokedAt: null }, select: { id: true } });
  for (const login of logins) await revokeLogin(login.id, "reuse", origin);
  return invalidGrant("The authorization code was already used: the login it started is revoked. Log in again.");
}
