import { calculateJwkThumbprint, exportJWK } from "jose";
import * as client from "openid-client";
import { describe, expect, it } from "vitest";
import { reportApproval } from "@/lib/approvals/report-approval";
import { config } from "@/lib/config";
import { db } from "@/lib/database/db";
import { AUTHORIZATION_CODE_LIFETIME_MS } from "@/lib/init/authorization-code";
import { dpopProof, newDpopKey } from "../../helpers/dpop";
import { approve, deny, newAccount } from "../../helpers/forms";
import { databaseFingerprint } from "../../helpers/hostile/fingerprint";
import { dispatch } from "../../helpers/in-process";
import { createLink, randomIv, withToken } from "../../helpers/links";
import {
  approvedAuthorization,
  authorizationInit,
  approveInAuthorizingBrowser,
  authorizationQuery,
  authorizeRequest,
  CLIENT_ID,
  clientReturnOf,
  exchangeCode,
  pkcePair,
  REDIRECT_URI,
  refresh,
} from "../../helpers/oauth";

// The authorization code flow with PKCE on a loopback redirect URI (RFC 6749 §4.1, RFC 7636,
// RFC 8252 §7.3), through the real route handlers: the authorization endpoint's every error
// (RFC 6749 §4.1.2.1: shown on our page, or sent back with state and iss, RFC 9207), the
// approval that needs no code, the code's one use, and the token request's checks.

const APP_URL = "https://initlink.test";
const TOKEN_PATH = "/api/oauth/token";

type TokenBody = { access_token: string; token_type: string; refresh_token: string; project_id: string; error?: string };

/** A 303 to our own page saying why, never to the client. */
async function expectShownOnOurPage(query: URLSearchParams | string, code: "invalid_client" | "invalid_redirect_uri") {
  const before = await databaseFingerprint();
  const response = await authorizeRequest(query);
  expect(response.status).toBe(303);
  expect(response.headers.get("location")).toBe(`${APP_URL}/oauth/refused?error=${code}`);
  expect(await databaseFingerprint()).toEqual(before);
}

/** A 303 back to the client's redirect URI with the error, our issuer and (if it may be echoed) its state; nothing written. */
async function expectSentBack(query: URLSearchParams, error: string, state: string | null = "af0ifjsldkj") {
  const before = await databaseFingerprint();
  const response = await authorizeRequest(query);
  expect(response.status).toBe(303);
  const location = new URL(response.headers.get("location") ?? "");
  expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
  expect(location.searchParams.get("error")).toBe(error);
  expect(location.searchParams.get("error_description")).toEqual(expect.any(String));
  expect(location.searchParams.get("iss")).toBe(APP_URL);
  expect(location.searchParams.get("state")).toBe(state);
  expect(location.searchParams.has("code")).toBe(false);
  expect(await databaseFingerprint()).toEqual(before);
}

describe("the metadata (RFC 8414)", () => {
  it("names the authorization endpoint, the code flow, S256 only and the iss parameter", async () => {
    const metadata = (await (await dispatch("GET", "/.well-known/oauth-authorization-server")).json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({
      authorization_endpoint: `${APP_URL}/oauth/authorize`,
      response_types_supported: ["code"],
      response_modes_supported: ["query"],
      code_challenge_methods_supported: ["S256"],
      authorization_response_iss_parameter_supported: true,
    });
    expect(metadata.grant_types_supported).toContain("authorization_code");
  });
});

describe("the authorization endpoint", () => {
  it("goes on to the request's init page, which names the client; the person approves with one click, and the page sends the browser back with the code, the state and iss", async () => {
    const { challenge, verifier } = pkcePair();
    const { redirect, code, initId } = await approvedAuthorization(authorizationQuery(challenge, { binding_message: "Sync my notes" }));
    expect(`${redirect.origin}${redirect.pathname}`).toBe(REDIRECT_URI);
    expect(code).toMatch(/^ilac_/);
    expect(redirect.searchParams.get("state")).toBe("af0ifjsldkj");
    expect(redirect.searchParams.get("iss")).toBe(APP_URL);
    const prisma = await db();
    expect(await prisma.init.findUniqueOrThrow({ where: { id: initId }, select: { sender: true, status: true, bindingMessage: true } })).toEqual({ sender: CLIENT_ID, status: "done", bindingMessage: "Sync my notes" });

    const response = await exchangeCode(code, verifier);
    expect(response.status).toBe(200);
    const tokens = (await response.json()) as TokenBody;
    expect(tokens).toMatchObject({ token_type: "Bearer", project_id: initId, access_token: expect.stringMatching(/^ilat_/), refresh_token: expect.stringMatching(/^ilrt_/) });
    expect((await createLink(tokens.project_id, randomIv(), withToken(tokens.access_token))).status).toBe(200);
    expect((await refresh(tokens.refresh_token)).status).toBe(200);
  });

  it("keeps a state it cannot echo out of the answer, and a redirect URI on [::1] or without a path works", async () => {
    const { challenge } = pkcePair();
    await expectSentBack(authorizationQuery(challenge, { state: "s".repeat(1001) }), "invalid_request", null);
    // RFC 6749 Appendix A.5: visible ASCII (PostgreSQL cannot store a NUL).
    for (const state of ["a\u0000b", "é", "a\nb"]) await expectSentBack(authorizationQuery(challenge, { state }), "invalid_request", null);
    for (const redirectUri of ["http://[::1]:5000/cb", "http://127.0.0.1:5000", "http://127.0.0.1/cb?keep=1", "http://localhost:5000/callback"]) {
      const response = await authorizeRequest(authorizationQuery(challenge, { redirect_uri: redirectUri }));
      expect(response.headers.get("location")).toMatch(/\/init\/[A-Za-z0-9_-]{22}$/);
    }
  });

  // RFC 6749 §4.1.2.1: an unusable client_id or redirect_uri is never redirected to.
  it.each([
    ["no client_id", { client_id: undefined }],
    ["an empty client_id", { client_id: "" }],
    ["a client_id with a control character", { client_id: "acme\u0007cli" }],
    ["a client_id with spaces around it", { client_id: " @acme/cli " }],
    ["a client_id over 200 characters", { client_id: "c".repeat(201) }],
  ])("shows %s on our page", async (_what, overrides) => {
    await expectShownOnOurPage(authorizationQuery(pkcePair().challenge, overrides), "invalid_client");
  });

  it("shows a repeated client_id or redirect_uri on our page", async () => {
    const { challenge } = pkcePair();
    await expectShownOnOurPage(`${authorizationQuery(challenge)}&client_id=other`, "invalid_client");
    await expectShownOnOurPage(`${authorizationQuery(challenge)}&redirect_uri=${encodeURIComponent("http://127.0.0.1:1/x")}`, "invalid_redirect_uri");
  });

  it.each([
    ["none", undefined],
    ["an https site", "https://evil.example/callback"],
    ["a name that is not localhost", "http://localhost.evil.example:43117/callback"],
    ["a host that starts like loopback", "http://127.0.0.1.evil.example/callback"],
    ["another private address", "http://192.168.1.10:43117/callback"],
    ["a fragment", "http://127.0.0.1:43117/callback#x"],
    ["credentials", "http://user:pass@127.0.0.1:43117/callback"],
    ["a code already in its query", "http://127.0.0.1:43117/callback?code=planted"],
    ["an escape the parser would rewrite", "http://127.0.0.1:43117/%2e%2e/callback"],
    ["a custom scheme", "com.example.app:/callback"],
    ["over 500 characters", `http://127.0.0.1:43117/${"a".repeat(500)}`],
  ])("shows a redirect_uri of %s on our page", async (_what, redirectUri) => {
    await expectShownOnOurPage(authorizationQuery(pkcePair().challenge, { redirect_uri: redirectUri }), "invalid_redirect_uri");
  });

  it.each([
    ["no response_type", "invalid_request", { response_type: undefined }],
    ["response_type=token", "unsupported_response_type", { response_type: "token" }],
    ["response_type=code id_token", "unsupported_response_type", { response_type: "code id_token" }],
    ["no code_challenge (PKCE is required)", "invalid_request", { code_challenge: undefined }],
    ["code_challenge_method=plain", "invalid_request", { code_challenge_method: "plain" }],
    ["no code_challenge_method (plain by RFC 7636 §4.3)", "invalid_request", { code_challenge_method: undefined }],
    ["a code_challenge of 42 characters", "invalid_request", { code_challenge: "a".repeat(42) }],
    ["a code_challenge that is no base64url", "invalid_request", { code_challenge: `${"a".repeat(42)}=` }],
    ["a dpop_jkt that is no thumbprint", "invalid_request", { dpop_jkt: "not-a-thumbprint" }],
    ["a binding_message over 140 characters", "invalid_request", { binding_message: "b".repeat(141) }],
    ["a binding_message with a bidi override", "invalid_request", { binding_message: "pay \u202Eevil" }],
  ])("sends %s back to the client as %s, with its state and iss", async (_what, error, overrides) => {
    await expectSentBack(authorizationQuery(pkcePair().challenge, overrides), error);
  });

  it("sends a repeated parameter back as invalid_request", async () => {
    const { challenge } = pkcePair();
    await expectSentBack(new URLSearchParams(`${authorizationQuery(challenge, { state: undefined })}&scope=a&scope=b`), "invalid_request", null);
    await expectSentBack(new URLSearchParams(`${authorizationQuery(challenge)}&code_challenge=${challenge}`), "invalid_request");
  });

  it("asks nothing to type or tick in the browser that opened it, whose answer goes back through it", async () => {
    const { initId, mark } = await authorizationInit(authorizationQuery(pkcePair().challenge));
    const person = await newAccount();
    const answer = await approveInAuthorizingBrowser(initId, mark, person.token);
    expect(answer.headers.get("location")).toBe(`${APP_URL}/init/${initId}`);
  });

  // A forwarded link: approved elsewhere, the answer would reach a listener on that person's machine, not the application.
  it("refuses the approval in any other browser (other_browser), with a forged mark too, writing nothing; Deny still works there", async () => {
    const { initId, mark } = await authorizationInit(authorizationQuery(pkcePair().challenge));
    const person = await newAccount();
    const forged = `${mark.slice(0, -2)}${mark.endsWith("AA") ? "BB" : "AA"}`;
    const before = await databaseFingerprint();
    for (const answer of [await approve(initId, person.token, { project: "new", name: "Far app" }), await approveInAuthorizingBrowser(initId, forged, person.token)]) {
      expect(answer.headers.get("location")).toBe(`${APP_URL}/init/${initId}?error=other_browser`);
    }
    expect(await databaseFingerprint()).toEqual(before);
    expect((await deny(initId, person.token)).headers.get("location")).toBe(`${APP_URL}/init/${initId}`);
    expect((await clientReturnOf(initId, person.email, false))?.kind).toBe("none");
  });

  it("sends a denial back as access_denied in the browser that opened the request, whoever denied it (a forwarded link's Deny too), and in no other browser", async () => {
    const { initId } = await authorizationInit(authorizationQuery(pkcePair().challenge));
    const person = await newAccount();
    const other = await newAccount();
    expect((await deny(initId, other.token)).status).toBe(303);
    const back = await clientReturnOf(initId, person.email);
    expect(back?.kind).toBe("go");
    const url = new URL(back?.kind === "go" ? back.url : "");
    expect(Object.fromEntries(url.searchParams)).toEqual({ error: "access_denied", error_description: "The person denied the request.", state: "af0ifjsldkj", iss: APP_URL });
    expect((await clientReturnOf(initId, other.email, false))?.kind).toBe("none");
  });

  it("sends an expiry back as access_denied in the browser that opened the request, for as long as its mark lives past the request's end", async () => {
    const response = await authorizeRequest(authorizationQuery(pkcePair().challenge));
    const initId = /\/init\/([A-Za-z0-9_-]{22})$/.exec(response.headers.get("location") ?? "")?.[1] ?? "";
    const maxAge = Number(/Max-Age=(\d+)/.exec(response.headers.get("set-cookie") ?? "")?.[1]);
    expect(maxAge).toBeGreaterThan(900 + 60);
    const person = await newAccount();
    const prisma = await db();
    await prisma.init.update({ where: { id: initId }, data: { expiresAt: new Date(Date.now() - 1) } });
    const back = await clientReturnOf(initId, person.email);
    expect(back?.kind === "go" ? new URL(back.url).searchParams.get("error_description") : back?.kind).toBe("The request expired before the person approved it.");
  });

  it("sends the code once, from a page loaded as a document: a refresh in place takes nothing, a page shown again says it went", async () => {
    const { initId, mark } = await authorizationInit(authorizationQuery(pkcePair().challenge));
    const person = await newAccount();
    await approveInAuthorizingBrowser(initId, mark, person.token);
    expect((await clientReturnOf(initId, person.email, true, false))?.kind).toBe("none");
    const prisma = await db();
    expect((await prisma.authorizationRequest.findUniqueOrThrow({ where: { initId } })).codeSentAt).toBeNull();
    expect((await clientReturnOf(initId, person.email))?.kind).toBe("go");
    expect((await clientReturnOf(initId, person.email))?.kind).toBe("sent");
  });

  it("gives 50 concurrent approvals of one request one winner, and one code, for the winner only", async () => {
    const { initId, mark } = await authorizationInit(authorizationQuery(pkcePair().challenge));
    const people = await Promise.all(Array.from({ length: 5 }, () => newAccount()));
    const answers = await Promise.all(Array.from({ length: 50 }, (_, index) => approveInAuthorizingBrowser(initId, mark, people[index % 5].token)));
    expect(answers.filter((answer) => answer.headers.get("location") === `${APP_URL}/init/${initId}`)).toHaveLength(1);
    const backs = await Promise.all(people.map((each) => clientReturnOf(initId, each.email)));
    expect(backs.filter((back) => back?.kind === "go")).toHaveLength(1);
    const prisma = await db();
    expect(await prisma.authorizationRequest.count({ where: { initId, codeHash: { not: null } } })).toBe(1);
  });

  it("takes localhost, keeps the redirect URI's own query as written, and reads an empty parameter as omitted", async () => {
    const { challenge, verifier } = pkcePair();
    const redirectUri = "http://localhost:43117/cb?flag&a=%20b~";
    const { redirect, code } = await approvedAuthorization(authorizationQuery(challenge, { redirect_uri: redirectUri, dpop_jkt: "" }));
    expect(redirect.href.startsWith(`${redirectUri}&code=`)).toBe(true);
    expect((await exchangeCode(code, verifier, { redirect_uri: redirectUri })).status).toBe(200);
  });
});

describe("the token request (grant_type=authorization_code)", () => {
  it.each([
    ["another code_verifier", (verifier: string) => ({ code_verifier: `${verifier.slice(0, -1)}${verifier.endsWith("A") ? "B" : "A"}` })],
    ["a code_verifier that is too short", () => ({ code_verifier: "short" })],
    ["another redirect_uri (another port)", () => ({ redirect_uri: "http://127.0.0.1:43118/callback" })],
    ["another client_id", () => ({ client_id: "@evil/cli" })],
    ["an unknown code", () => ({ code: "ilac_unknown" })],
  ])("refuses %s with invalid_grant, and the code still works after", async (_what, change) => {
    const { challenge, verifier } = pkcePair();
    const { code } = await approvedAuthorization(authorizationQuery(challenge));
    const before = await databaseFingerprint();
    const refused = await exchangeCode(code, verifier, change(verifier));
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as TokenBody).error).toBe("invalid_grant");
    expect(await databaseFingerprint()).toEqual(before);
    expect((await exchangeCode(code, verifier)).status).toBe(200);
  });

  it.each(["code", "redirect_uri", "client_id", "code_verifier"])("needs %s (invalid_request)", async (name) => {
    const response = await exchangeCode("ilac_x", pkcePair().verifier, { [name]: undefined });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "invalid_request", error_description: `${name} is required.` });
  });

  it("revokes what the first use issued when the code comes again (RFC 6749 §4.1.2), and the page no longer sends it", async () => {
    const { challenge, verifier } = pkcePair();
    const { code, initId, person } = await approvedAuthorization(authorizationQuery(challenge));
    const first = (await (await exchangeCode(code, verifier)).json()) as TokenBody;
    expect((await clientReturnOf(initId, person.email))?.kind).toBe("returned");
    const again = await exchangeCode(code, verifier);
    expect(again.status).toBe(400);
    expect(((await again.json()) as TokenBody).error).toBe("invalid_grant");
    expect((await createLink(first.project_id, randomIv(), withToken(first.access_token))).status).toBe(401);
    expect((await refresh(first.refresh_token)).status).toBe(400);
  });

  it("gives 50 concurrent uses of one code at most one token, and that one is revoked", async () => {
    const { challenge, verifier } = pkcePair();
    const { code } = await approvedAuthorization(authorizationQuery(challenge));
    const answers = await Promise.all(Array.from({ length: 50 }, () => exchangeCode(code, verifier)));
    const won = answers.filter((answer) => answer.status === 200);
    expect(won.length).toBeLessThanOrEqual(1);
    expect(answers.filter((answer) => answer.status === 400)).toHaveLength(50 - won.length);
    for (const answer of won) {
      const tokens = (await answer.json()) as TokenBody;
      expect((await createLink(tokens.project_id, randomIv(), withToken(tokens.access_token))).status).toBe(401);
    }
  });

  it("refuses a code whose approval was taken back (This wasn't me) before the exchange, and revokes the login of one taken back after", async () => {
    const { challenge, verifier } = pkcePair();
    const before = await approvedAuthorization(authorizationQuery(challenge));
    const prisma = await db();
    const approverOf = async (initId: string) => (await prisma.init.findUniqueOrThrow({ where: { id: initId } })).approvedById ?? "";
    await reportApproval(config(), await approverOf(before.initId), before.initId, { address: "127.0.0.1", userAgent: "Firefox" });
    expect(await (await exchangeCode(before.code, verifier)).json()).toEqual({ error: "invalid_grant", error_description: "The person took this approval back." });

    const after = await approvedAuthorization(authorizationQuery(challenge));
    const tokens = (await (await exchangeCode(after.code, verifier)).json()) as TokenBody;
    await reportApproval(config(), await approverOf(after.initId), after.initId, { address: "127.0.0.1", userAgent: "Firefox" });
    expect((await refresh(tokens.refresh_token)).status).toBe(400);
    expect((await createLink(tokens.project_id, randomIv(), withToken(tokens.access_token))).status).toBe(401);
  });

  it("refuses a code past its minute, and the page says it lapsed", async () => {
    const { challenge, verifier } = pkcePair();
    const { code, initId, person } = await approvedAuthorization(authorizationQuery(challenge));
    const prisma = await db();
    const { codeExpiresAt } = await prisma.authorizationRequest.findUniqueOrThrow({ where: { initId } });
    expect(codeExpiresAt!.getTime() - Date.now()).toBeLessThanOrEqual(AUTHORIZATION_CODE_LIFETIME_MS);
    await prisma.authorizationRequest.update({ where: { initId }, data: { codeExpiresAt: new Date(Date.now() - 1) } });
    const response = await exchangeCode(code, verifier);
    expect(await response.json()).toEqual({ error: "invalid_grant", error_description: "The authorization code has expired. Log in again." });
    expect((await clientReturnOf(initId, person.email))?.kind).toBe("lapsed");
  });

  it("binds the code to the key dpop_jkt names (RFC 9449 §10): another key's proof or none is refused, that key's gets a DPoP token", async () => {
    const key = await newDpopKey();
    const other = await newDpopKey();
    const { challenge, verifier } = pkcePair();
    const { code } = await approvedAuthorization(authorizationQuery(challenge, { dpop_jkt: await calculateJwkThumbprint(key.publicJwk) }));
    const proofOf = async (signer: typeof key) => ({ dpop: await dpopProof(signer, { method: "POST", url: TOKEN_PATH }) });
    for (const headers of [{}, await proofOf(other)]) {
      const refused = await exchangeCode(code, verifier, {}, headers);
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as TokenBody).error).toBe("invalid_dpop_proof");
    }
    const bound = await exchangeCode(code, verifier, {}, await proofOf(key));
    expect(bound.status).toBe(200);
    expect(((await bound.json()) as TokenBody).token_type).toBe("DPoP");
  });
});

describe("an unmodified OAuth library (openid-client)", () => {
  const viaRoutes: client.CustomFetch = (url, options) =>
    dispatch(options.method, url.slice(APP_URL.length), { body: options.body === undefined ? null : String(options.body), headers: Object.fromEntries(new Headers(options.headers)) });

  async function discovered() {
    const config = await client.discovery(new URL(APP_URL), CLIENT_ID, undefined, client.None(), { algorithm: "oauth2", [client.customFetch]: viaRoutes });
    config[client.customFetch] = viaRoutes;
    return config;
  }

  it("logs in with PKCE, state, iss and a DPoP key bound through dpop_jkt, then refreshes with the key", async () => {
    const config = await discovered();
    const keyPair = await client.randomDPoPKeyPair("ES256");
    const dpop = client.getDPoPHandle(config, keyPair);
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const authorizationUrl = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT_URI,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
      dpop_jkt: await calculateJwkThumbprint(await exportJWK(keyPair.publicKey)),
    });
    expect(`${authorizationUrl.origin}${authorizationUrl.pathname}`).toBe(`${APP_URL}/oauth/authorize`);
    const { redirect } = await approvedAuthorization(authorizationUrl.searchParams);
    const tokens = await client.authorizationCodeGrant(config, redirect, { pkceCodeVerifier: verifier, expectedState: state }, undefined, { DPoP: dpop });
    expect(tokens).toMatchObject({ token_type: "dpop", access_token: expect.stringMatching(/^ilat_/) });
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token ?? "", undefined, { DPoP: dpop });
    expect(refreshed.access_token).not.toBe(tokens.access_token);
  });

  it("refuses an answer that names another issuer (RFC 9207), and a denial reaches it as access_denied", async () => {
    const config = await discovered();
    const verifier = client.randomPKCECodeVerifier();
    const query = authorizationQuery(await client.calculatePKCECodeChallenge(verifier), { state: undefined });
    const { redirect } = await approvedAuthorization(query);
    const forged = new URL(redirect);
    forged.searchParams.set("iss", "https://mix-up.example");
    const mixedUp = await client.authorizationCodeGrant(config, forged, { pkceCodeVerifier: verifier }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(mixedUp).toMatchObject({ code: "OAUTH_INVALID_RESPONSE", cause: { message: 'unexpected "iss" (issuer) response parameter value' } });

    const { initId } = await authorizationInit(query);
    const person = await newAccount();
    await deny(initId, person.token);
    const back = await clientReturnOf(initId, person.email);
    await expect(client.authorizationCodeGrant(config, new URL(back?.kind === "go" ? back.url : REDIRECT_URI), { pkceCodeVerifier: verifier })).rejects.toMatchObject({
      error: "access_denied",
    });
  });
});
