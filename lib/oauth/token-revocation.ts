import { ACCESS_TOKEN_PATTERN } from "../access-tokens/authenticate-access-token";
import type { Config } from "../config";
import { db } from "../database/db";
import { ApiError, invalidGrant } from "../errors";
import type { RequestOrigin } from "../request-origin";
import { hashSecret } from "../secrets";
import { findRefreshToken, REFRESH_TOKEN_PREFIX, revokeLogin } from "./refresh-tokens";
import { verifiedLinkBearer } from "./token-introspection";
import type { RevocationBody } from "./schemas";

// Token revocation (RFC 7009): a public client names itself (client_id) and the token to end.
// A login's current refresh token ends the whole login (every access token of it too, RFC 7009
// §2.1's "MAY", taken); an access token ends alone. A token that is unknown, expired, already
// revoked or retired by a refresh is answered 200 all the same (§2.2): it is no longer valid, so
// there is nothing for it to end. No DPoP proof is asked: RFC 9449 defines none here, and clients
// (openid-client's tokenRevocation) send none; a bound login's current token, copied without
// the key, can end the login but never use it. The token's prefix says what it is;
// token_type_hint is only a hint (§2.1), so it is not needed.

const anotherClient = () => invalidGrant("This token was not issued to this client.");

/** Revokes `body.token` if it is this client's; answers as RFC 7009 §2.2 says. */
export async function revokeToken(cfg: Config, body: RevocationBody, origin: () => RequestOrigin): Promise<Record<string, never>> {
  const { token, client_id: clientId } = body;
  if (ACCESS_TOKEN_PATTERN.test(token)) await revokeAccessToken(token, clientId);
  else if (token.startsWith(REFRESH_TOKEN_PREFIX)) await revokeRefreshToken(token, clientId, origin);
  // RFC 7009 §2.2.1: a link bearer is a token this server knows but does not revoke here.
  else if ((await verifiedLinkBearer(cfg, token)) !== null) throw new ApiError("unsupported_token_type", "A link bearer is revoked on its project's page (its link), not here.");
  return {};
}

async function revokeRefreshToken(token: string, clientId: string, origin: () => RequestOrigin): Promise<void> {
  const stored = await findRefreshToken(token);
  if (stored === null) return;
  // RFC 7009 §2.1: the token must have been issued to the client asking.
  if (stored.login.clientId !== clientId) throw anotherClient();
  // A retired token, the likelier to leak (an old backup, a log), cannot log the client out.
  if (stored.login.currentTokenId !== stored.id) return;
  if (stored.login.revokedAt !== null || stored.login.expiresAt.getTime() <= Date.now()) return;
  await revokeLogin(stored.login.id, "revocation", origin());
}

async function revokeAccessToken(token: string, clientId: string): Promise<void> {
  const prisma = await db();
  const stored = await prisma.accessToken.findUnique({
    where: { tokenHash: hashSecret(token) },
    select: { id: true, revokedAt: true, expiresAt: true, refreshTokens: { select: { login: { select: { clientId: true } } }, take: 1 } },
  });
  if (stored === null) return;
  // A token made on the settings page or collected by the status pickup was issued to no OAuth client.
  if (stored.refreshTokens[0]?.login.clientId !== clientId) throw anotherClient();
  if (stored.revokedAt !== null || (stored.expiresAt !== null && stored.expiresAt.getTime() <= Date.now())) return;
  await prisma.accessToken.updateMany({ where: { id: stored.id, revokedAt: null }, data: { revokedAt: new Date() } });
}
