import { decodeJwt } from "jose";
import * as client from "openid-client";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/database/db";
import { revokeResourceServer } from "@/lib/resource-servers/manage-resource-servers";
import { databaseFingerprint } from "../../helpers/hostile";
import { revokeLinkForm } from "../../helpers/forms";
import { dispatch } from "../../helpers/in-process";
import { linked } from "../../helpers/links";
import { basicAuthorization, CLIENT_ID, introspect, loggedIn, ownerToken, postIntrospection, refresh, resourceServer, revoke, tokensOf } from "../../helpers/oauth";

// Token introspection (RFC 7662): lib/oauth/token-introspection.ts; its callers' credentials:
// resource servers' (lib/resource-servers/, client_secret_basic) and access tokens. The rate
// limits per caller: tests/api/limits/rate-limit.test.ts and concurrent-limits.test.ts.

const APP_URL = "https://initlink.test";

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
    for (const authorization of ["Bearer ilat_AudKZwucI6wsqZhncOHqAlRHpNFbChlRx9Cx4zXg4jE", `Bearer ${tokens.refresh_token}`, "Token dXNlcjpwYXNz"]) {
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

  describe("with a resource server's credential (client_secret_basic)", () => {
    // RFC 7662 §2.1–2.2: the credential reaches the projects it was made for, and no other.
    it("learns active: true, with the approving account, for the tokens and link bearers of its projects, and active: false for any other", async () => {
      const mine = await loggedIn("Platform");
      const anotherOfMine = await loggedIn("Staging");
      const theirs = await loggedIn("Theirs");
      await db().then((prisma) => prisma.project.update({ where: { id: anotherOfMine.tokens.project_id }, data: { ownerId: mine.userId } }));
      const platform = await resourceServer(mine.userId, [mine.tokens.project_id]);
      const link = await linked(mine.tokens.project_id, mine.tokens.access_token);
      expect(await introspect(mine.tokens.access_token, platform)).toMatchObject({ active: true, token_type: "Bearer", sub: mine.userId, account_id: mine.userId, project_id: mine.tokens.project_id });
      expect(await introspect(mine.tokens.refresh_token, platform)).toMatchObject({ active: true, token_type: "refresh_token", account_id: mine.userId });
      expect(await introspect(link.jwt, platform)).toMatchObject({ active: true, sub: decodeJwt(link.jwt).sub, account_id: mine.userId, project_id: mine.tokens.project_id });
      // Another owner's project, the owner's project it was not made for, a token for all the owner's projects.
      for (const token of [theirs.tokens.access_token, theirs.tokens.refresh_token, anotherOfMine.tokens.access_token, await ownerToken(mine.userId, "all")]) {
        expect(await introspect(token, platform)).toEqual({ active: false });
      }
      // Made for both, it reaches both.
      const both = await resourceServer(mine.userId, [mine.tokens.project_id, anotherOfMine.tokens.project_id]);
      expect(await introspect(anotherOfMine.tokens.access_token, both)).toMatchObject({ active: true, project_id: anotherOfMine.tokens.project_id });
      // A revoked link is inactive at once, for this caller too.
      expect((await revokeLinkForm(mine.person.token, mine.tokens.project_id, String(decodeJwt(link.jwt).sub))).status).toBe(303);
      expect(await introspect(link.jwt, platform)).toEqual({ active: false });
    });

    it("notes its last use, written at most every few minutes", async () => {
      const { tokens, userId } = await loggedIn();
      const platform = await resourceServer(userId, [tokens.project_id]);
      const prisma = await db();
      const lastUsed = async () => (await prisma.resourceServerCredential.findUniqueOrThrow({ where: { id: platform.clientId } })).lastUsedAt;
      expect(await lastUsed()).toBeNull();
      await introspect(tokens.access_token, platform);
      const first = await lastUsed();
      expect(first).not.toBeNull();
      await introspect(tokens.access_token, platform);
      expect(await lastUsed()).toEqual(first);
    });

    // RFC 6749 §2.3.1: the id and secret are form-encoded before base64; the server decodes them.
    it("takes an id and secret form-encoded beyond need", async () => {
      const { tokens, userId } = await loggedIn();
      const platform = await resourceServer(userId, [tokens.project_id]);
      const escaped = (value: string) => [...value].map((character) => `%${character.charCodeAt(0).toString(16).padStart(2, "0")}`).join("");
      const response = await postIntrospection({ token: tokens.access_token }, { authorization: `bAsIc  ${Buffer.from(`${escaped(platform.clientId)}:${escaped(platform.clientSecret)}`).toString("base64")}` });
      expect(await response.json()).toMatchObject({ active: true });
    });

    // RFC 6749 §5.2: invalid_client, 401, and the scheme the client used.
    it("refuses a wrong secret, an unknown or revoked credential and a malformed Basic header with 401 invalid_client and a Basic challenge, writing nothing", async () => {
      const { tokens, userId } = await loggedIn();
      const platform = await resourceServer(userId, [tokens.project_id]);
      const revoked = await resourceServer(userId, [tokens.project_id]);
      await revokeResourceServer(userId, revoked.clientId);
      const b64 = (text: string) => Buffer.from(text).toString("base64");
      const refusals = [
        basicAuthorization({ ...platform, clientSecret: `${platform.clientSecret.slice(0, -1)}${platform.clientSecret.endsWith("A") ? "B" : "A"}` }),
        basicAuthorization({ ...platform, clientSecret: "ilrss_" }),
        basicAuthorization({ clientId: "ilrs_AAAAAAAAAAAAAAAAAAAAAA", clientSecret: platform.clientSecret }),
        basicAuthorization({ clientId: tokens.access_token, clientSecret: platform.clientSecret }),
        basicAuthorization(revoked),
        basicAuthorization({ clientId: platform.clientId, clientSecret: revoked.clientSecret }),
        "Basic",
        "Basic ",
        "Basic !!!!",
        `Basic ${b64(platform.clientId)}`,
        `Basic ${b64(`:${platform.clientSecret}`)}`,
        `Basic ${b64(`${platform.clientId}:`)}`,
        `Basic ${b64(`${platform.clientId}:%zz`)}`,
        `Basic ${Buffer.from([0xff, 0x3a, 0xfe]).toString("base64")}`,
        `Basic ${b64(`${platform.clientId}:${platform.clientSecret}`).replace(/=+$/, "")}x`,
        `Basic ${b64(`${platform.clientId}:${platform.clientSecret}`)} extra`,
      ];
      const before = await databaseFingerprint();
      for (const authorization of refusals) {
        const refused = await postIntrospection({ token: tokens.access_token }, { authorization });
        expect(refused.status, authorization).toBe(401);
        expect(refused.headers.get("www-authenticate")).toBe('Basic realm="initlink"');
        const body = (await refused.json()) as Record<string, unknown>;
        expect(Object.keys(body).sort()).toEqual(["error", "error_description"]);
        expect(body.error).toBe("invalid_client");
        expect(JSON.stringify(body)).not.toContain(platform.clientSecret);
      }
      expect(await databaseFingerprint()).toEqual(before);
      expect(await introspect(tokens.access_token, platform)).toMatchObject({ active: true });
    });

    // An unmodified third-party client (openid-client, over oauth4webapi) discovers the metadata and
    // sends its own client_secret_basic: the wire format is the library's, not ours.
    it("answers openid-client's tokenIntrospection with ClientSecretBasic, and refuses it a wrong secret with invalid_client", async () => {
      const { tokens, userId } = await loggedIn();
      const platform = await resourceServer(userId, [tokens.project_id]);
      const viaRoutes: client.CustomFetch = (url, options) =>
        dispatch(options.method, url.slice(APP_URL.length), { body: options.body === undefined ? null : String(options.body), headers: Object.fromEntries(new Headers(options.headers)) });
      const verifier = await client.discovery(new URL(APP_URL), platform.clientId, undefined, client.ClientSecretBasic(platform.clientSecret), { algorithm: "oauth2", [client.customFetch]: viaRoutes });
      verifier[client.customFetch] = viaRoutes;
      expect(verifier.serverMetadata().introspection_endpoint_auth_methods_supported).toContain("client_secret_basic");
      expect(await client.tokenIntrospection(verifier, tokens.access_token)).toMatchObject({ active: true, account_id: userId, project_id: tokens.project_id });
      const impostor = new client.Configuration(verifier.serverMetadata(), platform.clientId, undefined, client.ClientSecretBasic(`${platform.clientSecret}x`));
      impostor[client.customFetch] = viaRoutes;
      const refused = await client.tokenIntrospection(impostor, tokens.access_token).then(
        () => null,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(client.WWWAuthenticateChallengeError);
      expect(refused).toMatchObject({ status: 401, cause: [{ scheme: "basic", parameters: { realm: "initlink" } }] });
    });
  });
});
