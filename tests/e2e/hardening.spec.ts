import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { MAIN_URL, scratchDatabase } from "../../playwright.config";
import { linkedClient } from "../helpers/journey.mjs";
import { approveAsNewPerson, createInit, newEmail, over, PASSWORD } from "./flow";

// Headers, logs and URLs under hostile conditions. One server of its own, with an https APP_URL
// (HSTS, Secure cookies) and its output captured, so the logs can be searched for secrets.

const PORT = 3107;
const SERVER = `http://127.0.0.1:${PORT}`;
const APP_URL = "https://initlink.test";
const MASTER_KEY = randomBytes(32).toString("base64");

let server: ChildProcessWithoutNullStreams;
let output = "";

test.beforeAll(async () => {
  // Starting a server takes a while on a busy machine.
  test.setTimeout(180_000);
  const databaseUrl = scratchDatabase("hardening");
  const env = { ...process.env, PORT: String(PORT), HOSTNAME: "127.0.0.1", APP_URL, DATABASE_URL: databaseUrl, MASTER_KEY };
  // Node itself, not a shell around it, so that afterAll's kill reaches the server.
  execFileSync(process.execPath, ["tests/setup/reset-database.mjs"], { env });
  server = spawn(process.execPath, ["scripts/start.mjs"], { env });
  server.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  server.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  for (let attempt = 0; attempt < 600; attempt++) {
    try {
      if ((await fetch(`${SERVER}/api/live`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the server did not start:\n${output}`);
});

test.afterAll(() => {
  server.kill("SIGTERM");
});

const FORM = { "content-type": "application/x-www-form-urlencoded", origin: APP_URL };

test("pages carry a strict, per-request CSP that the app's own scripts satisfy", async ({ page, request }) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (message.text().includes("Content Security Policy")) violations.push(message.text());
  });
  const first = await request.get(`${MAIN_URL}/signin`);
  const policy = first.headers()["content-security-policy"];
  expect(policy).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
  expect(policy).toContain("frame-ancestors 'none'");
  expect(policy).not.toContain("unsafe-eval");
  expect(policy).not.toContain("unsafe-inline");
  const second = await request.get(`${MAIN_URL}/signin`);
  expect(second.headers()["content-security-policy"]).not.toBe(policy);
  const api = await request.get(`${MAIN_URL}/api/live`);
  expect(api.headers()["content-security-policy"]).toContain("default-src 'none'");
  for (const response of [first, api]) {
    expect(response.headers()["x-content-type-options"]).toBe("nosniff");
    expect(response.headers()["referrer-policy"]).toBe("no-referrer");
    expect(response.headers()["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    // APP_URL of the main server is http: no HSTS there.
    expect(response.headers()["strict-transport-security"]).toBeUndefined();
  }

  // A whole approval with client-side code running (live status, navigation): nothing blocked.
  await approveAsNewPerson(page, await createInit(request));
  await page.getByRole("link", { name: "Access tokens" }).click();
  await page.getByLabel("Token name").fill("csp check");
  await page.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByLabel("New access token")).toHaveValue(/^ilat_/);
  expect(violations).toEqual([]);
});

test("HSTS on every answer when APP_URL is https", async ({ request }) => {
  for (const path of ["/api/live", "/signin", "/.well-known/jwks.json"]) {
    expect((await request.get(`${SERVER}${path}`)).headers()["strict-transport-security"]).toBe("max-age=63072000; includeSubDomains");
  }
});

test("a forged Host or X-Forwarded-Host changes no URL the service builds", async ({ request }) => {
  const forged = { host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "http" };
  const created = await (await request.post(`${SERVER}/api/init`, { data: { sender: "@acme/cli" }, headers: forged })).json();
  expect(created.url).toBe(`${APP_URL}/api/init/${created.id}`);
  expect(created.redirect_url).toBe(`${APP_URL}/init/${created.id}`);
  const signUp = await request.post(`${SERVER}/auth/signup`, { form: { email: newEmail(), password: PASSWORD }, headers: { ...FORM, ...forged }, maxRedirects: 0 });
  expect(signUp.status()).toBe(303);
  expect(signUp.headers().location).toBe(`${APP_URL}/`);
  const jwks = await request.get(`${SERVER}/.well-known/jwks.json`, { headers: forged });
  expect(jwks.status()).toBe(200);
});

test("no token, secret, password or key appears in the server's logs after a full flow", async ({ request }) => {
  const password = `pw-${randomBytes(12).toString("hex")}`;
  // The journey throws unless the sign-up starts a session and the approval leads to the init's page.
  const client = await linkedClient(over(request, SERVER), { site: APP_URL, email: newEmail(), password, name: "Logged", init: { sender: "@acme/cli" } });
  const { init, cookie } = client;
  // A failed sign-in with a wrong password, which must not be logged either.
  await request.post(`${SERVER}/auth/signin`, { form: { email: client.email, password: `${password}-wrong` }, headers: FORM, maxRedirects: 0 });
  expect((await request.get(`${SERVER}/api/projects/${init.id}`, { headers: { authorization: client.bearer } })).status()).toBe(200);
  const personal = await (await request.post(`${SERVER}/settings/tokens/create`, { form: { name: "logged", scope: "all", lifetime: "7" }, headers: { ...FORM, cookie } })).json();
  // Failures that echo nothing: a wrong secret, an unknown token.
  await request.get(`${SERVER}/api/init/${init.id}`, { headers: { authorization: `Bearer ${init.secret}x` } });
  await request.post(`${SERVER}/api/projects/${init.id}/link/${"ab".repeat(16)}`, { headers: { authorization: `Bearer ${personal.token}x` } });
  await new Promise((resolve) => setTimeout(resolve, 500));

  const secrets = { password, session: client.session, initSecret: init.secret, accessToken: client.accessToken, jwt: client.bearer.slice(7), personalToken: personal.token, masterKey: MASTER_KEY };
  for (const [name, value] of Object.entries(secrets)) {
    expect(typeof value === "string" && value.length > 8, name).toBe(true);
    expect(output.includes(value as string), `${name} appears in the logs`).toBe(false);
  }
  // Every request left one JSON line with its id.
  const requests = output.split("\n").filter((line) => line.startsWith("{") && line.includes('"msg":"request"'));
  expect(requests.length).toBeGreaterThanOrEqual(10);
  for (const line of requests) expect(JSON.parse(line).request_id).toMatch(/^[0-9a-f-]{36}$/);
});
