import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { databaseFingerprint } from "../../helpers/hostile";
import { revokeLinkForm } from "../../helpers/forms";
import { linked } from "../../helpers/links";
import { CLIENT_ID, introspect, loggedIn, ownerToken, postIntrospection, refresh, revoke, tokensOf } from "../../helpers/oauth";

// Token introspection (RFC 7662): lib/oauth/token-introspection.ts. The rate limit per caller:
// tests/api/limits/rate-limit.test.ts.

const now = () => Math.floor(Date.now() / 1000);

describe("POST /api/oauth/introspect", () => {
  // RFC 7662 §2.2; `account_id` names the approving account whatever the token (RFC 9068 §2.2 would put it in `sub`, which names a link bearer's link)
  it("describes an active access token, refresh token and link bearer of the caller's project", async () => {
    const { tokens, userId } = await loggedIn();
    const credential = await ownerToken(userId, tokens.project_id);
    expect(await introspect(tokens.access_token, credential)).toEqual({
      active: true,
      token_type: "Bearer",
      client_id: CLIENT_ID,
      sub: userId,
      account_id: userId,
      project_id: tokens.project_id,
      iat: expect.any(Number),
      exp: expect.any(Number),
      iss: "https://initlink.test",
    });
    const refreshToken = await introspect(tokens.refresh_token, credential);
    expect(refreshToken).toEqual({ active: true, token_type: "refresh_token", client_id: CLIENT_ID, sub: userId, account_id: userId, project_id: tokens.project_id, iat: expect.any(Number), exp: expect.any(Number), iss: "https://initlink.test" });
    expect(Number(refreshToken.exp) - now()).toBeGreaterThan(29 * 86_400);
    const link = await linked(tokens.project_id, tokens.access_token);
    const claims = decodeJwt(link.jwt);
    expect(claims.account_id).toBe(userId);
    expect(await introspect(link.jwt, credential)).toEqual({
      active: true,
      token_type: "Bearer",
      client_id: claims.client_id,
      sub: claims.sub,
      // The approving account, as the bearer's own claim says.
      account_id: userId,
      project_id: tokens.project_id,
      iat: claims.iat,
      exp: claims.exp,
      iss: "https://initlink.test",
    });
  });

  it("says active: false at once for a revoked link, a revoked or retired token, and anything unknown", async () => {
    const { tokens, userId, person } = await loggedIn();
    const credential = await ownerToken(userId, "all");
    const link = await linked(tokens.project_id, tokens.access_token);
    expect((await revokeLinkForm(person.token, tokens.project_id, String(decodeJwt(link.jwt).sub))).status).toBe(303);
    expect(await introspect(link.jwt, credential)).toEqual({ active: false });
    const next = await tokensOf(await refresh(tokens.refresh_token));
    expect(await introspect(tokens.refresh_token, credential)).toEqual({ active: false });
    expect(await introspect(next.refresh_token, credential)).toMatchObject({ active: true });
    expect((await revoke(next.access_token)).status).toBe(200);
    expect(await introspect(next.access_token, credential)).toEqual({ active: false });
    for (const token of ["ilat_AudKZwucI6wsqZhncOHqAlRHpNFbChlRx9Cx4zXg4jE", "ilrt_AudKZwucI6wsqZhncOHqAlRHpNFbChlRx9Cx4zXg4jE", "nonsense", "a.b.c"]) {
      expect(await introspect(token, credential)).toEqual({ active: false });
    }
  });

  it("says active: false, and nothing more, for tokens of projects the caller's credential does not reach", async () => {
    const mine = await loggedIn("Mine");
    const theirs = await loggedIn("Theirs");
    const anotherOfMine = await loggedIn("Another");
    const everyProject = await ownerToken(mine.userId, "all");
    const oneProject = await ownerToken(mine.userId, mine.tokens.project_id);
    // Another owner's tokens.
    for (const token of [theirs.tokens.access_token, theirs.tokens.refresh_token]) {
      expect(await introspect(token, everyProject)).toEqual({ active: false });
      expect(await introspect(token, oneProject)).toEqual({ active: false });
    }
    // A credential for one project does not reach the owner's other projects, nor a token for all of them.
    expect(await introspect(anotherOfMine.tokens.access_token, oneProject)).toEqual({ active: false });
    expect(await introspect(everyProject, oneProject)).toEqual({ active: false });
    expect(await introspect(everyProject, everyProject)).toMatchObject({ active: true, sub: mine.userId });
    expect(await introspect(everyProject, everyProject)).not.toHaveProperty("project_id");
  });

  // RFC 7662 §2.3, RFC 6750 §3
  it("refuses a caller without a valid access token with 401 and a Bearer challenge, writing nothing", async () => {
    const { tokens } = await loggedIn();
    const before = await databaseFingerprint();
    const missing = await postIntrospection({ token: tokens.access_token });
    expect(missing.status).toBe(401);
    expect(missing.headers.get("www-authenticate")).toBe('Bearer realm="initlink"');
    expect(await missing.json()).toMatchObject({ error: "invalid_token" });
    for (const authorization of ["Bearer ilat_AudKZwucI6wsqZhncOHqAlRHpNFbChlRx9Cx4zXg4jE", `Bearer ${tokens.refresh_token}`, "Basic dXNlcjpwYXNz"]) {
      const refused = await postIntrospection({ token: tokens.access_token }, { authorization });
      expect(refused.status).toBe(401);
      expect(refused.headers.get("www-authenticate")).toBe('Bearer realm="initlink", error="invalid_token"');
      expect(Object.keys((await refused.json()) as object).sort()).toEqual(["error", "error_description"]);
    }
    expect(await databaseFingerprint()).toEqual(before);
  });

  it("refuses a request without token with invalid_request", async () => {
    const { tokens, userId } = await loggedIn();
    const response = await postIntrospection({ token_type_hint: "access_token" }, { authorization: `Bearer ${await ownerToken(userId, tokens.project_id)}` });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: "invalid_request" });
  });
});
