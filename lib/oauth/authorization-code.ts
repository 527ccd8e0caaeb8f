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
 * What the init page of an authorization request does about the way back, in the browser that
 * opened the request only (lib/init/authorizing-browser.ts; another browser's loopback port is
 * not the application's): `go` sends it to the redirect URI with the code, for the approver,
 * once (a second copy, used, would revoke the login); with access_denied once it was denied, by
 * anyone, or expired. `sent` once the code went, `returned` once it was used, `lapsed`
 * once it ended unused; `none` for anyone else, or while the request waits.
 */
export type ClientReturn = { redirectTo: string } & ({ kind: "go"; url: string } | { kind: "sent" | "returned" | "lapsed" | "none" });

type Decided = { status: InitStatus; approvedById: string | null; deniedById: string | null };

/**
 * The init's authorization request as its page shows it to `viewerId` in this browser; null for
 * an init of another kind. `document`: the page is loaded as a document, not refreshed in place
 * (a refresh of the page being left, as the approve form's answer arrives, must not take the
 * one send of the code from the page that follows).
 */
export async function clientReturn(cfg: Config, initId: string, init: Decided, viewerId: string | null, browser: { authorizing: boolean; document: boolean }): Promise<ClientReturn | null> {
  const prisma = await db();
  const request = await prisma.authorizationRequest.findUnique({ where: { initId } });
  if (request === null) return null;
  const redirectTo = new URL(request.redirectUri).host;
  if (!browser.authorizing || init.status === "pending") return { kind: "none", redirectTo };
  const answer = (parameters: Record<string, string>) => ({ kind: "go" as const, redirectTo, url: authorizationResponse(request.redirectUri, { ...parameters, state: request.state, iss: cfg.appUrl }) });
  // A denial or an expiry carries no secret: whoever decided, the application learns it.
  if (init.status === "expired") return answer({ error: "access_denied", error_description: "The request expired before the person approved it." });
  if (init.status === "denied") return answer({ error: "access_denied", error_description: "The person denied the request." });
  if (viewerId === null || init.approvedById !== viewerId) return { kind: "none", redirectTo };
  if (request.codeUsedAt !== null) return { kind: "returned", redirectTo };
  const now = new Date();
  if (request.sealedCode === null || request.codeExpiresAt === null || request.codeExpiresAt <= now) return { kind: "lapsed", redirectTo };
  if (!browser.document) return { kind: "none", redirectTo };
  const code = unsealedCode(cfg, initId, request.sealedCode);
  const sending = await prisma.authorizationRequest.updateMany({ where: { initId, codeSentAt: null, codeUsedAt: null }, data: { codeSentAt: now } });
  return sending.count === 1 ? answer({ code }) : { kind: "sent", redirectTo };
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
