import { expect, test } from "@playwright/test";
import * as client from "openid-client";
import { MAIN_URL, SHORT_URL } from "../../playwright.config";
import { approveTypingTheCode, denyAsNewPerson } from "./client-flow";
import { newEmail, signUpFromInitPage } from "./flow";

// An unmodified, widely used OAuth client library (openid-client) logs in to the production
// build with the Device Authorization Grant (RFC 8628), discovering the server from its
// metadata (RFC 8414), while a person approves in Chromium; then refreshes (RFC 6749 §6),
// revokes (RFC 7009) and introspects (RFC 7662, authenticated by a custom client auth that sends
// the owner's access token as Bearer, and as a resource server with its own client_secret_basic
// and a credential made on /settings/resource-servers). Its own fetch hook only records the token endpoint's
// answers (and, once, asks twice at once to earn a slow_down).

const CLIENT_ID = "@acme/oauth-cli";

type Recorded = { status: number; error?: string };

/** The server's configuration as the library discovers it; `answers` collects the token endpoint's. */
async function discover(server: string, answers: Recorded[] = [], doubleFirstPoll = false) {
  const config = await client.discovery(new URL(server), CLIENT_ID, undefined, client.None(), { algorithm: "oauth2", execute: [client.allowInsecureRequests] });
  let doubled = !doubleFirstPoll;
  config[client.customFetch] = async (url, options) => {
    const isToken = url === `${server}/api/oauth/token`;
    // The library sends its requests' bodies as form parameters or text; nothing else is sent here.
    const body = options.body instanceof URLSearchParams || typeof options.body === "string" ? options.body : undefined;
    const send = () => fetch(url, { method: options.method, headers: options.headers, body, redirect: options.redirect, signal: options.signal });
    if (isToken && !doubled) {
      doubled = true;
      answers.push(await record(await send()));
    }
    const response = await send();
    if (isToken) answers.push(await record(response.clone()));
    return response;
  };
  return config;
}

async function record(response: Response): Promise<Recorded> {
  const body = (await response.json()) as { error?: string };
  return { status: response.status, ...(body.error === undefined ? {} : { error: body.error }) };
}

test("discovery, device authorization, pending and slow_down, a person approves, the token links the client, once; refresh, introspection, revocation and reuse detection", async ({ page, request }) => {
  const answers: Recorded[] = [];
  const config = await discover(MAIN_URL, answers, true);
  expect(config.serverMetadata()).toMatchObject({ issuer: MAIN_URL, token_endpoint: `${MAIN_URL}/api/oauth/token`, jwks_uri: `${MAIN_URL}/.well-known/jwks.json` });

  const device = await client.initiateDeviceAuthorization(config, {});
  expect(device).toMatchObject({ user_code: expect.stringMatching(/^[A-Z]{4}-[A-Z]{4}$/), verification_uri: `${MAIN_URL}/device`, expires_in: 900, interval: 5 });

  const polling = client.pollDeviceAuthorizationGrant(config, device);
  // The first poll was sent twice at once: the second one earned a slow_down, which the library obeys.
  await expect.poll(() => answers.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
  expect(answers.slice(0, 2)).toEqual([
    { status: 400, error: "authorization_pending" },
    { status: 400, error: "slow_down" },
  ]);
  await approveTypingTheCode(page, { redirect_url: device.verification_uri_complete ?? "", user_code: device.user_code }, "OAuth journey");
  const tokens = await polling;
  expect(tokens).toMatchObject({ token_type: "bearer", access_token: expect.stringMatching(/^ilat_/), project_url: expect.stringContaining(`${MAIN_URL}/projects/`) });
  expect(answers.at(-1)).toEqual({ status: 200 });
  expect(answers.filter((answer) => answer.error === "slow_down")).toHaveLength(1);

  const projectId = String(tokens.project_id);
  const link = await request.post(`${MAIN_URL}/api/projects/${projectId}/link/${"ab".repeat(16)}`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
  expect(link.status()).toBe(200);
  expect(await link.json()).toMatchObject({ success: true, bearer: expect.stringMatching(/^Bearer /) });

  // The device code is exchanged once.
  const again = await request.post(`${MAIN_URL}/api/oauth/token`, { form: { grant_type: "urn:ietf:params:oauth:grant-type:device_code", device_code: device.device_code, client_id: CLIENT_ID } });
  expect(again.status()).toBe(400);
  expect(await again.json()).toMatchObject({ error: "invalid_grant" });

  // RFC 6749 §6: the library refreshes; each refresh token is used once.
  const first = String(tokens.refresh_token);
  const second = await client.refreshTokenGrant(config, first);
  expect(second).toMatchObject({ access_token: expect.stringMatching(/^ilat_/), refresh_token: expect.stringMatching(/^ilrt_/), project_id: projectId });
  const third = await client.refreshTokenGrant(config, String(second.refresh_token));

  // RFC 7662: a verifier introspects with an access token the owner makes on the settings page.
  await page.goto(`${MAIN_URL}/settings/tokens`);
  await page.getByLabel("Token name").fill("verifier");
  await page.getByLabel("Projects").selectOption({ label: "OAuth journey" });
  await page.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByLabel("New access token")).toHaveValue(/^ilat_/);
  const verifier = await introspector(config, await page.getByLabel("New access token").inputValue());
  expect(await client.tokenIntrospection(verifier, third.access_token)).toMatchObject({ active: true, token_type: "Bearer", client_id: CLIENT_ID, project_id: projectId });
  expect(await client.tokenIntrospection(verifier, String(third.refresh_token))).toMatchObject({ active: true, token_type: "refresh_token", client_id: CLIENT_ID });
  const bearer = ((await link.json()) as { bearer: string }).bearer.slice("Bearer ".length);
  expect(await client.tokenIntrospection(verifier, bearer)).toMatchObject({ active: true, project_id: projectId });

  // The platform's API introspects with a resource-server credential made on its page, shown once,
  // as a confidential client: the library's own client_secret_basic (RFC 6749 §2.3.1).
  await page.goto(`${MAIN_URL}/settings/resource-servers`);
  await page.getByLabel("Credential name").fill("platform API");
  await page.getByLabel("OAuth journey").check();
  await page.getByRole("button", { name: "Create credential" }).click();
  await expect(page.getByLabel("Client secret")).toHaveValue(/^ilrss_[A-Za-z0-9_-]{43}$/);
  const platform = await client.discovery(
    new URL(MAIN_URL),
    await page.getByLabel("Client ID").inputValue(),
    undefined,
    client.ClientSecretBasic(await page.getByLabel("Client secret").inputValue()),
    { algorithm: "oauth2", execute: [client.allowInsecureRequests] },
  );
  expect(platform.serverMetadata().introspection_endpoint_auth_methods_supported).toContain("client_secret_basic");
  const approver = await client.tokenIntrospection(platform, bearer);
  expect(approver).toMatchObject({ active: true, project_id: projectId, account_id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/) });
  expect(await client.tokenIntrospection(platform, third.access_token)).toMatchObject({ active: true, account_id: approver.account_id });
  await page.reload();
  const credentials = page.getByRole("list").filter({ hasText: "platform API" });
  await expect(credentials).not.toContainText("never");
  await page.screenshot({ path: "test-results/screenshots/resource-servers.png", fullPage: true });
  await credentials.getByText("Revoke…").click();
  await credentials.getByRole("button", { name: "Yes, revoke" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Revoked the credential “platform API”" })).toBeVisible();
  const refused = await client.tokenIntrospection(platform, bearer).then(
    () => null,
    (error: unknown) => error,
  );
  expect(refused).toMatchObject({ status: 401, cause: [{ scheme: "basic" }] });

  // RFC 7009: the library revokes an access token; it is inactive at once.
  await client.tokenRevocation(config, third.access_token);
  expect(await client.tokenIntrospection(verifier, third.access_token)).toEqual({ active: false });

  // RFC 9700 §4.14.2: the first refresh token, two refreshes back, comes again: the whole login ends.
  await expectInvalidGrant(client.refreshTokenGrant(config, first));
  await expectInvalidGrant(client.refreshTokenGrant(config, String(third.refresh_token)));
  for (const token of [second.access_token, String(third.refresh_token)]) expect(await client.tokenIntrospection(verifier, token)).toEqual({ active: false });
});

// RFC 9449: the library's own DPoP key pair, the server's nonce fetched and retried by the library.
test("DPoP: the library's key binds the token and the login, it links with fetchProtectedResource and refreshes with its handle, and the tokens are refused without the key", async ({ page, request }) => {
  const config = await discover(MAIN_URL);
  expect(config.serverMetadata().dpop_signing_alg_values_supported).toContain("ES256");
  const dpop = client.getDPoPHandle(config, await client.randomDPoPKeyPair());
  const device = await client.initiateDeviceAuthorization(config, {});
  const polling = client.pollDeviceAuthorizationGrant(config, device, undefined, { DPoP: dpop });
  await approveTypingTheCode(page, { redirect_url: device.verification_uri_complete ?? "", user_code: device.user_code }, "DPoP journey");
  const tokens = await polling;
  expect(tokens).toMatchObject({ token_type: "dpop", access_token: expect.stringMatching(/^ilat_/) });

  const url = new URL(`${MAIN_URL}/api/projects/${String(tokens.project_id)}/link/${"ef".repeat(16)}`);
  const linked = await client.fetchProtectedResource(config, tokens.access_token, url, "POST", undefined, undefined, { DPoP: dpop });
  expect(linked.status).toBe(200);
  expect(await linked.json()).toMatchObject({ success: true, bearer: expect.stringMatching(/^Bearer /) });

  const asBearer = await request.post(url.href, { headers: { authorization: `Bearer ${tokens.access_token}` } });
  expect(asBearer.status()).toBe(401);
  expect(asBearer.headers()["www-authenticate"]).toMatch(/^DPoP realm="initlink", error="invalid_token"/);
  expect(await asBearer.json()).toMatchObject({ success: false, code: "invalid_token" });

  // RFC 9449 §5: the login is bound too: the library refreshes with its handle, for a bound token.
  const refreshed = await client.refreshTokenGrant(config, String(tokens.refresh_token), undefined, { DPoP: dpop });
  expect(refreshed).toMatchObject({ token_type: "dpop", access_token: expect.stringMatching(/^ilat_/), refresh_token: expect.stringMatching(/^ilrt_/) });
  const relinkUrl = new URL(`${MAIN_URL}/api/projects/${String(tokens.project_id)}/link/${"f0".repeat(16)}`);
  expect((await client.fetchProtectedResource(config, refreshed.access_token, relinkUrl, "POST", undefined, undefined, { DPoP: dpop })).status).toBe(200);
  // The refresh token without the key is refused, and the login goes on.
  const stolen = await request.post(`${MAIN_URL}/api/oauth/token`, { form: { grant_type: "refresh_token", refresh_token: String(refreshed.refresh_token), client_id: CLIENT_ID } });
  expect(stolen.status()).toBe(400);
  expect(await stolen.json()).toMatchObject({ error: "invalid_dpop_proof" });
  expect(await client.refreshTokenGrant(config, String(refreshed.refresh_token), undefined, { DPoP: dpop })).toMatchObject({ token_type: "dpop" });
});

/** The same server as the library sees it, calling introspection with `credential` as its Bearer (RFC 7662 §2.1). */
async function introspector(config: client.Configuration, credential: string): Promise<client.Configuration> {
  const bearer: client.ClientAuth = (_as, _client, _body, headers) => headers.set("authorization", `Bearer ${credential}`);
  const verifier = new client.Configuration(config.serverMetadata(), "verifier", undefined, bearer);
  client.allowInsecureRequests(verifier);
  return verifier;
}

async function expectInvalidGrant(refreshing: Promise<unknown>) {
  const error = await refreshing.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(client.ResponseBodyError);
  expect(error).toMatchObject({ error: "invalid_grant", status: 400 });
}

test("a denial ends the library's polling with access_denied", async ({ page }) => {
  const config = await discover(MAIN_URL);
  const device = await client.initiateDeviceAuthorization(config, {});
  const polling = client.pollDeviceAuthorizationGrant(config, device).then(
    () => null,
    (error: unknown) => error,
  );
  await denyAsNewPerson(page, { redirect_url: device.verification_uri_complete ?? "", user_code: device.user_code });
  const error = await polling;
  expect(error).toBeInstanceOf(client.ResponseBodyError);
  expect(error).toMatchObject({ error: "access_denied", status: 400 });
});

test("an unapproved device code ends the library's polling with expired_token", async () => {
  // The short server: a 10 s lifetime, a 1 s interval.
  const config = await discover(SHORT_URL);
  const device = await client.initiateDeviceAuthorization(config, {});
  expect(device).toMatchObject({ expires_in: 10, interval: 1 });
  // The library would stop at expires_in on its own clock; the server's answer is what is tested.
  const error = await client.pollDeviceAuthorizationGrant(config, device, undefined, { signal: AbortSignal.timeout(30_000) }).then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(client.ResponseBodyError);
  expect(error).toMatchObject({ error: "expired_token", status: 400 });
});

// RFC 8628 §3.3: the code typed at /device counts as typed on the request's page, for that browser
// session; it never rides in the URL (a link's ?user_code= filled the input in: tests/e2e/init-page.spec.ts).
test("the verification page: a person opens verification_uri, signs up, types the code there and approves without typing it again", async ({ page }) => {
  const config = await discover(MAIN_URL);
  const device = await client.initiateDeviceAuthorization(config, {});
  const polling = client.pollDeviceAuthorizationGrant(config, device);
  await page.goto(device.verification_uri);
  // Signed out, /device sends the person to sign in, and from there to create an account.
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await signUpFromInitPage(page, newEmail());
  await expect(page.getByRole("heading", { name: "Enter a code" })).toBeVisible();
  await page.getByLabel("Code shown in your terminal").fill("zzzz-zzzz");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByText("No request is waiting for that code")).toBeVisible();
  await page.getByLabel("Code shown in your terminal").fill(device.user_code.replace("-", "").toLowerCase());
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(device.verification_uri_complete ?? "");
  await expect(page.getByText("You typed this request's code on the Enter a code page")).toContainText(device.user_code);
  await expect(page.getByLabel("Code shown in your terminal")).toHaveCount(0);
  await page.screenshot({ path: "test-results/screenshots/init-code-entered.png", fullPage: true });
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("heading", { name: "Approved" })).toBeVisible();
  const tokens = await polling;
  expect(tokens).toMatchObject({ access_token: expect.stringMatching(/^ilat_/) });
  // RFC 7009: the library logs out; the refresh token is revoked with its login.
  await client.tokenRevocation(config, String(tokens.refresh_token), { token_type_hint: "refresh_token" });
  await expectInvalidGrant(client.refreshTokenGrant(config, String(tokens.refresh_token)));
});
