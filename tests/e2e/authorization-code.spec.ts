import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { calculateJwkThumbprint, exportJWK } from "jose";
import * as client from "openid-client";
import { MAIN_URL } from "../../playwright.config";
import { newEmail, signUpFromInitPage } from "./flow";

// A native client on this machine logs in with the authorization code flow (RFC 6749 §4.1, PKCE
// RFC 7636, a loopback redirect RFC 8252 §7.3): an unmodified OAuth library (openid-client)
// builds the request, Chromium opens it, a person signs up and approves with one click, and the
// browser must really reach the client's loopback port, which the pages' form-action policy
// would block for a form's redirect. The library then checks state and iss (RFC 9207) and
// exchanges the code with its verifier and a DPoP key named by dpop_jkt (RFC 9449 §10).

const CLIENT_ID = "@acme/desktop";

/** The client's loopback listener: it answers the browser and keeps each URL it was sent. */
async function loopbackListener(): Promise<{ server: Server; redirectUri: string; received: URL[] }> {
  const received: URL[] = [];
  const server = createServer((request, response) => {
    received.push(new URL(request.url ?? "/", `http://127.0.0.1:${(server.address() as AddressInfo).port}`));
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end("<!doctype html><title>Logged in</title><h1>You can close this tab</h1>");
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { server, redirectUri: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`, received };
}

async function discover() {
  return client.discovery(new URL(MAIN_URL), CLIENT_ID, undefined, client.None(), { algorithm: "oauth2", execute: [client.allowInsecureRequests] });
}

test("approved with one click, the browser reaches the loopback redirect and the library gets DPoP-bound tokens", async ({ page, request }) => {
  const listener = await loopbackListener();
  try {
    const config = await discover();
    expect(config.serverMetadata()).toMatchObject({ authorization_endpoint: `${MAIN_URL}/oauth/authorize`, code_challenge_methods_supported: ["S256"] });
    const keyPair = await client.randomDPoPKeyPair("ES256");
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const authorizationUrl = client.buildAuthorizationUrl(config, {
      redirect_uri: listener.redirectUri,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
      dpop_jkt: await calculateJwkThumbprint(await exportJWK(keyPair.publicKey)),
      binding_message: "Sync the notes on this laptop",
    });

    await page.goto(authorizationUrl.href);
    await expect(page).toHaveURL(/\/init\/[A-Za-z0-9_-]{22}$/);
    await signUpFromInitPage(page, newEmail());
    await expect(page.getByText(CLIENT_ID).first()).toBeVisible();
    await expect(page.getByText("“Sync the notes on this laptop” (the application's own words)")).toBeVisible();
    // Nothing to type or tick: the answer goes back through this browser.
    await expect(page.getByText("When you approve, this browser takes the answer back to the application")).toBeVisible();
    await expect(page.getByRole("checkbox")).toHaveCount(0);
    await page.screenshot({ path: "test-results/screenshots/pages/authorization-request.png", fullPage: true });
    await page.getByRole("button", { name: "Approve" }).click();

    await page.waitForURL((url) => url.href.startsWith(listener.redirectUri));
    await expect(page.getByRole("heading", { name: "You can close this tab" })).toBeVisible();
    expect(listener.received).toHaveLength(1);
    const callback = listener.received[0];
    expect(callback.searchParams.get("iss")).toBe(MAIN_URL);

    const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state }, undefined, { DPoP: client.getDPoPHandle(config, keyPair) });
    expect(tokens).toMatchObject({ token_type: "dpop", access_token: expect.stringMatching(/^ilat_/), refresh_token: expect.stringMatching(/^ilrt_/) });
    // The project API says where its tokens come from (RFC 9728), as the production server serves it.
    const resourceMetadataUrl = `${MAIN_URL}/.well-known/oauth-protected-resource`;
    expect((await request.get(`${MAIN_URL}/api/projects`)).headers()["www-authenticate"]).toBe(`Bearer realm="initlink", resource_metadata="${resourceMetadataUrl}"`);
    expect(await (await request.get(resourceMetadataUrl)).json()).toMatchObject({ resource: MAIN_URL, authorization_servers: [MAIN_URL] });

    // The page, opened again, does not send the used code a second time (that would revoke the login).
    await page.goBack();
    await expect(page.getByText("The application has its answer. You can close this tab.")).toBeVisible();
    expect(listener.received).toHaveLength(1);
  } finally {
    listener.server.close();
  }
});

test("a forwarded link offers Deny only; a denial reaches the client as access_denied with its state; a redirect URI off this machine is shown, never followed", async ({ page, browser }) => {
  const listener = await loopbackListener();
  try {
    const config = await discover();
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const parameters = { redirect_uri: listener.redirectUri, code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256", state };
    await page.goto(client.buildAuthorizationUrl(config, parameters).href);
    // The same request's page in another browser (the link forwarded): Deny only.
    const elsewhere = await browser.newContext();
    const forwarded = await elsewhere.newPage();
    await forwarded.goto(page.url());
    await signUpFromInitPage(forwarded, newEmail());
    await expect(forwarded.getByText("This request was opened in another browser.")).toBeVisible();
    await expect(forwarded.getByRole("button", { name: "Approve" })).toHaveCount(0);
    await elsewhere.close();

    await signUpFromInitPage(page, newEmail());
    await page.getByRole("button", { name: "Deny" }).click();
    await page.waitForURL((url) => url.href.startsWith(listener.redirectUri));
    await expect(client.authorizationCodeGrant(config, listener.received[0], { pkceCodeVerifier: verifier, expectedState: state })).rejects.toMatchObject({ error: "access_denied" });

    await page.goto(client.buildAuthorizationUrl(config, { ...parameters, redirect_uri: "https://evil.example/callback" }).href);
    await expect(page).toHaveURL(`${MAIN_URL}/oauth/refused?error=invalid_redirect_uri`);
    await expect(page.getByRole("heading", { name: "Sign-in request refused" })).toBeVisible();
    await expect(page.getByRole("alert").filter({ hasText: "somewhere other than this computer" })).toBeVisible();
  } finally {
    listener.server.close();
  }
});
