import { describe, expect, it } from "vitest";
import { db } from "@/lib/database/db";
import { dispatch } from "../../helpers/in-process";
import { databaseFingerprint } from "../../helpers/hostile";
import { createLink, linked, randomIv, withToken } from "../../helpers/links";
import { CLIENT_ID, loggedIn, ownerToken, postRevocation, refresh, revoke, tokensOf } from "../../helpers/oauth";

// Token revocation (RFC 7009): lib/oauth/token-revocation.ts.

const linkStatus = async (projectId: string, accessToken: string) => (await createLink(projectId, randomIv(), withToken(accessToken))).status;

async function expectRevoked(response: Response) {
  expect(response.status).toBe(200);
  expect(response.headers.get("cache-control")).toBe("no-store");
  expect(await response.json()).toEqual({});
}

async function expectOAuthError(response: Response, error: string) {
  expect(response.status).toBe(400);
  const body = (await response.json()) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(["error", "error_description"]);
  expect(body.error).toBe(error);
}

describe("POST /api/oauth/revoke", () => {
  // RFC 7009 §2.1: revoking a refresh token ends its login, the access tokens issued in it too.
  it("ends the whole login for a refresh token, whatever token_type_hint says, and records it in the activity", async () => {
    const { tokens, userId } = await loggedIn("Revoked login");
    const second = await tokensOf(await refresh(tokens.refresh_token));
    await expectRevoked(await postRevocation({ token: second.refresh_token, token_type_hint: "access_token", client_id: CLIENT_ID }));
    expect((await refresh(second.refresh_token)).status).toBe(400);
    for (const accessToken of [tokens.access_token, second.access_token]) expect(await linkStatus(tokens.project_id, accessToken)).toBe(401);
    const prisma = await db();
    expect(await prisma.oAuthLogin.findFirstOrThrow({ where: { userId } })).toMatchObject({ revokedReason: "revocation" });
    expect(await prisma.activityEvent.findMany({ where: { userId, kind: "oauth_login_revoked" } })).toEqual([
      expect.objectContaining({ projectName: "Revoked login", sender: CLIENT_ID, observedUserAgent: "acme-cli/1.0" }),
    ]);
    // RFC 7009 §2.2: revoked already, still 200, and nothing more is written.
    const before = await databaseFingerprint();
    await expectRevoked(await revoke(second.refresh_token));
    await expectRevoked(await revoke(tokens.refresh_token));
    expect(await databaseFingerprint()).toEqual(before);
  });

  // RFC 7009 §2.2: a retired refresh token is no longer valid: there is nothing it can end.
  it("ends nothing for a retired refresh token: the login goes on", async () => {
    const { tokens } = await loggedIn();
    const next = await tokensOf(await refresh(tokens.refresh_token));
    const before = await databaseFingerprint();
    await expectRevoked(await revoke(tokens.refresh_token));
    expect(await databaseFingerprint()).toEqual(before);
    expect((await refresh(next.refresh_token)).status).toBe(200);
  });

  it("ends an access token alone: the login's refresh token goes on", async () => {
    const { tokens } = await loggedIn();
    await expectRevoked(await revoke(tokens.access_token));
    expect(await linkStatus(tokens.project_id, tokens.access_token)).toBe(401);
    const next = await tokensOf(await refresh(tokens.refresh_token));
    expect(await linkStatus(tokens.project_id, next.access_token)).toBe(200);
  });

  // RFC 7009 §2.2: an invalid token is answered 200; there is nothing to end.
  it.each([
    ["an unknown refresh token", "ilrt_AudKZwucI6wsqZhncOHqAlRHpNFbChlRx9Cx4zXg4jE"],
    ["an unknown access token", "ilat_AudKZwucI6wsqZhncOHqAlRHpNFbChlRx9Cx4zXg4jE"],
    ["anything else", "not-a-token"],
    ["a JWT not signed by this service", "eyJhbGciOiJub25lIn0.eyJwcm9qZWN0X2lkIjoieCJ9."],
  ])("answers 200 for %s, writing nothing", async (_, token) => {
    const before = await databaseFingerprint();
    await expectRevoked(await revoke(token));
    expect(await databaseFingerprint()).toEqual(before);
  });

  // RFC 7009 §2.1: the token must have been issued to the client that asks.
  it("refuses another client's tokens, and a token made on the settings page, with invalid_grant, writing nothing", async () => {
    const { tokens, userId } = await loggedIn();
    const settingsToken = await ownerToken(userId, tokens.project_id);
    const before = await databaseFingerprint();
    await expectOAuthError(await revoke(tokens.refresh_token, "@someone/else"), "invalid_grant");
    await expectOAuthError(await revoke(tokens.access_token, "@someone/else"), "invalid_grant");
    await expectOAuthError(await revoke(settingsToken), "invalid_grant");
    expect(await databaseFingerprint()).toEqual(before);
  });

  // RFC 7009 §2.2.1
  it("refuses a link bearer with unsupported_token_type: its link is revoked on the project page", async () => {
    const { tokens } = await loggedIn();
    const link = await linked(tokens.project_id, tokens.access_token);
    const before = await databaseFingerprint();
    await expectOAuthError(await revoke(link.jwt), "unsupported_token_type");
    expect(await databaseFingerprint()).toEqual(before);
  });

  it.each([
    ["no token", { client_id: CLIENT_ID }],
    ["no client_id", { token: "ilrt_x" }],
  ])("refuses %s with invalid_request", async (_, fields) => {
    await expectOAuthError(await postRevocation(fields), "invalid_request");
  });

  it("refuses a JSON body with invalid_request and another method with 405", async () => {
    const json = await dispatch("POST", "/api/oauth/revoke", { body: JSON.stringify({ token: "x", client_id: CLIENT_ID }), headers: { "content-type": "application/json" } });
    await expectOAuthError(json, "invalid_request");
    const { GET } = await import("@/app/api/oauth/revoke/route");
    const other = await GET(new Request("http://localhost:3000/api/oauth/revoke"), { params: Promise.resolve({}) });
    expect(other.status).toBe(405);
    expect(other.headers.get("allow")).toBe("POST, OPTIONS");
  });
});
