import { randomBytes } from "node:crypto";
import { request as httpRequest, type ClientRequest, type IncomingHttpHeaders } from "node:http";
import { connect } from "node:net";
import { expect, test } from "@playwright/test";
import fc from "fast-check";
import { HARDENING_PORT, MAIN_URL, scratchDatabase } from "../../playwright.config";
import { undecodableSegmentArb } from "../helpers/hostile/generators";
import { linkedClient } from "../helpers/journey.mjs";
import { approveAsNewPerson, createInit, newEmail, over, PASSWORD } from "./flow";
import { startOwnServer, type OwnServer } from "./own-server";

// Headers, logs and URLs under hostile conditions. One server of its own, with an https APP_URL
// (HSTS, Secure cookies) and its output captured, so the logs can be searched for secrets.

const PORT = HARDENING_PORT;
const SERVER = `http://127.0.0.1:${PORT}`;
const APP_URL = "https://initlink.test";
const MASTER_KEY = randomBytes(32).toString("base64");

let server: OwnServer;

// One server for the file: its tests run in order in one worker.
test.describe.configure({ mode: "default" });

test.beforeAll(async () => {
  // Starting a server takes a while on a busy machine.
  test.setTimeout(180_000);
  server = await startOwnServer(PORT, { APP_URL, DATABASE_URL: scratchDatabase("hardening"), MASTER_KEY });
});

test.afterAll(() => server.stop());

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
  // The build's files carry no markup: no policy, but the headers of every answer.
  const script = /\/_next\/static\/[^"]+\.js/.exec(await first.text())?.[0];
  const asset = await request.get(`${MAIN_URL}${script}`);
  expect(asset.status()).toBe(200);
  expect(asset.headers()["content-security-policy"]).toBeUndefined();
  // A path that only begins like the image optimizer's is Next's HTML not-found page: it gets a page's policy.
  const lookalike = await request.get(`${MAIN_URL}/_next/imagefoo`);
  expect(lookalike.headers()["content-type"]).toMatch(/^text\/html/);
  expect(lookalike.headers()["content-security-policy"]).toMatch(/script-src 'self' 'nonce-/);
  for (const response of [first, api, asset]) {
    expect(response.headers()["x-frame-options"]).toBe("DENY");
    expect(response.headers()["x-content-type-options"]).toBe("nosniff");
    expect(response.headers()["referrer-policy"]).toBe("no-referrer");
    expect(response.headers()["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    // APP_URL of the main server is http: no HSTS there.
    expect(response.headers()["strict-transport-security"]).toBeUndefined();
  }

  // A whole approval with client-side code running (live status, navigation): nothing blocked.
  await approveAsNewPerson(page, await createInit(request));
  await page.getByRole("link", { name: "Settings", exact: true }).click();
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
    expect(server.output().includes(value as string), `${name} appears in the logs`).toBe(false);
  }
  // Every request left one JSON line with its id.
  const requests = server.output().split("\n").filter((line) => line.startsWith("{") && line.includes('"msg":"request"'));
  expect(requests.length).toBeGreaterThanOrEqual(10);
  for (const line of requests) expect(JSON.parse(line).request_id).toMatch(/^[0-9a-f-]{36}$/);
});

/** A request written as given on the wire (the path is not normalised, as a URL object would): status, headers and body. */
function rawRequest(method: string, path: string, headers: Record<string, string | number> = {}, send?: (request: ClientRequest) => void) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; text: string }>((resolve, reject) => {
    const request = httpRequest({ host: "127.0.0.1", port: PORT, method, path, headers }, (response) => {
      let text = "";
      response.on("data", (chunk: Buffer) => (text += chunk.toString()));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }));
    });
    // The server may close the connection while a body is still being sent: the answer counts.
    request.on("error", reject);
    if (send) send(request);
    else request.end();
  });
}

// Against the production build: Next picks the handler by path and method.
test("every /api answer is JSON: 405 with Allow for a wrong method, 404 for an unknown path", async () => {
  for (const [method, path, allow] of [
    ["GET", "/api/init", "POST, OPTIONS"],
    ["DELETE", "/api/init/f0hzLD1VaTUHWk7oIoQhpg", "GET, HEAD, OPTIONS"],
    ["GET", `/api/projects/f0hzLD1VaTUHWk7oIoQhpg/link/${"ab".repeat(16)}`, "POST, OPTIONS"],
    ["POST", "/.well-known/jwks.json", "GET, HEAD, OPTIONS"],
  ]) {
    const response = await rawRequest(method, path);
    expect(response.status, `${method} ${path}`).toBe(405);
    expect(response.headers.allow).toBe(allow);
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
    expect(JSON.parse(response.text)).toMatchObject({ code: "method_not_allowed" });
  }
  for (const [method, path] of [
    ["GET", "/api/nothing"],
    ["POST", "/api/nothing/deeper"],
    ["POST", `/api/projects/%2e%2e/link/${"ab".repeat(16)}`],
    ["GET", "/api/init/f0hzLD1VaTUHWk7oIoQhpg/nothing"],
  ]) {
    const response = await rawRequest(method, path);
    expect(response.status, `${method} ${path}`).toBe(404);
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
    expect(JSON.parse(response.text)).toMatchObject({ code: "not_found" });
  }
});

// Next's own path decoding answered an escape that is not UTF-8 with a
// plain-text 500 (on every route with a dynamic segment, pages and forms included).
test("a path with an undecodable percent-escape: 400, JSON under /api/, a page elsewhere, never a 5xx", async () => {
  const id = "f0hzLD1VaTUHWk7oIoQhpg";
  const iv = "ab".repeat(16);
  const templates: [string, (segment: string) => string][] = [
    ["GET", (s) => `/api/init/${s}`],
    ["HEAD", (s) => `/api/init/${s}`],
    ["GET", (s) => `/api/init/${s}/events`],
    ["GET", (s) => `/api/projects/${s}`],
    ["POST", (s) => `/api/projects/${s}/link/${iv}`],
    ["POST", (s) => `/api/projects/${id}/link/${s}`],
    ["DELETE", (s) => `/api/${s}`],
    ["GET", (s) => `/.well-known/${s}`],
    ["GET", (s) => `/init/${s}`],
    ["GET", (s) => `/projects/${s}`],
    ["GET", (s) => `/projects/${id}/link/${s}?metadata=e30`],
    ["POST", (s) => `/init/${s}/approve`],
    ["POST", (s) => `/init/${s}/deny`],
    ["POST", (s) => `/projects/${id}/links/${s}/revoke`],
    ["POST", (s) => `/settings/tokens/${s}/revoke`],
    ["GET", (s) => `/_next/static/${s}`],
    ["GET", (s) => `/${s}`],
  ];
  const requests = fc.sample(fc.tuple(fc.constantFrom(...templates), undecodableSegmentArb([id, iv])), { seed: 20261125, numRuns: 120 });
  for (const [[method, pathOf], segment] of requests) {
    const path = pathOf(segment);
    const answer = await rawRequest(method, path, method === "POST" ? { origin: APP_URL, "content-type": "application/x-www-form-urlencoded" } : {});
    expect(answer.status, `${method} ${path}`).toBe(400);
    expect(answer.headers["x-frame-options"], `${method} ${path}`).toBe("DENY");
    if (method === "HEAD") continue;
    if (path.startsWith("/api/") || path.startsWith("/.well-known/")) {
      expect(answer.headers["content-type"], `${method} ${path}`).toMatch(/^application\/json/);
      // Create Project Link's answers, refusals included, carry success: false (server/edge-errors.mjs).
      const envelope = /^\/api\/projects\/[^/]+\/link\//.test(path) ? { success: false } : {};
      expect(JSON.parse(answer.text), `${method} ${path}`).toEqual({ ...envelope, error: "The request path has a percent-escape that is not valid UTF-8.", code: "malformed_path" });
    } else {
      expect(answer.headers["content-type"], `${method} ${path}`).toMatch(/^text\/html/);
      expect(answer.headers["content-security-policy"], `${method} ${path}`).toContain("script-src 'self' 'nonce-");
      expect(answer.text, `${method} ${path}`).toContain("<h1>Bad request</h1>");
    }
  }
});

/** Sends `bytes` of spaces without a length (chunked), as fast as the server takes them, whatever it answers meanwhile. */
const streamed = (bytes: number) => (request: ClientRequest) => {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  let sent = 0;
  const pump = () => {
    while (sent < bytes && !request.destroyed) {
      sent += chunk.length;
      if (!request.write(chunk)) return void request.once("drain", pump);
    }
    request.end();
  };
  request.on("error", () => undefined);
  pump();
};

// Nothing reads a huge body to its end. The last check guards against a proxy.ts coming back:
// given one, Next copied every page's and form's body up to 10 MB and logged that line.
test("a huge body is refused before it is buffered: 413 JSON, and no Next body-size line in the log", async () => {
  const refusal = { error: "The request body must be at most 16384 bytes.", code: "payload_too_large" };
  // Declared: answered on the headers, while the client has sent almost none of the 50 MB; in
  // the shape of the route's own refusals (server/edge-errors.mjs).
  const declaredHuge = (path: string, type: string) =>
    rawRequest("POST", path, { "content-type": type, origin: APP_URL, "content-length": 50 * 1024 * 1024 }, (request) => request.write("x".repeat(1024)));
  for (const [path, expected] of [
    [`/api/projects/f0hzLD1VaTUHWk7oIoQhpg/link/${"ab".repeat(16)}`, { success: false, ...refusal }],
    ["/api/oauth/token", { error: "invalid_request", error_description: refusal.error }],
  ] as const) {
    const declared = await declaredHuge(path, "application/json");
    expect(declared.status, path).toBe(413);
    expect(JSON.parse(declared.text), path).toEqual(expected);
  }
  for (const [path, type] of [
    ["/api/init", "application/json"],
    ["/auth/signin", "application/x-www-form-urlencoded"],
  ]) {
    const declared = await declaredHuge(path, type);
    expect(declared.status, path).toBe(413);
    expect(JSON.parse(declared.text)).toEqual(refusal);
    // Streamed without a length: the route refuses it at its limit; the rest is never buffered.
    const chunked = await rawRequest("POST", path, { "content-type": type, origin: APP_URL, "transfer-encoding": "chunked" }, streamed(24 * 1024 * 1024));
    if (path.startsWith("/api/")) expect(JSON.parse(chunked.text)).toMatchObject({ code: "payload_too_large" });
    else expect(chunked.headers.location).toContain("error=payload_too_large");
  }
  await new Promise((resolve) => setTimeout(resolve, 1000));
  expect(server.output()).not.toContain("Request body exceeded");
});

// A client that goes on streaming after its 413 is cut off, not read (and dropped) until Node's
// requestTimeout, 300 s later.
test("a streamed body past the limit: after the 413 the connection is closed even if the client keeps sending", async () => {
  // Half-open allowed: a client that goes on sending after the server's FIN, as a hostile one would.
  const socket = connect({ port: PORT, host: "127.0.0.1", allowHalfOpen: true });
  await new Promise((resolve) => socket.once("connect", resolve));
  let answer = "";
  socket.on("data", (chunk: Buffer) => (answer += chunk.toString()));
  const closed = new Promise<number>((resolve) => socket.once("close", () => resolve(Date.now())));
  socket.on("error", () => undefined);
  socket.write(`POST /api/init HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`);
  const chunk = `${(1024).toString(16)}\r\n${" ".repeat(1024)}\r\n`;
  const sending = setInterval(() => socket.writable && socket.write(chunk.repeat(20)), 100);
  const closedAt = await Promise.race([closed, new Promise<number>((resolve) => setTimeout(() => resolve(0), 8000))]);
  clearInterval(sending);
  socket.destroy();
  expect(answer).toMatch(/^HTTP\/1\.1 413/);
  expect(closedAt, "the server still reads a refused body after 8 s").toBeGreaterThan(0);
});

// With a second session cookie planted, the page and its Approve never act as
// two different accounts: the page is signed out (and says why), the form is refused.
test("two session cookies: the init page shows no one signed in, and Approve is refused", async () => {
  const cookieName = "__Host-initlink_session";
  const signUp = async (email: string) => {
    const response = await fetch(`${SERVER}/auth/signup`, { method: "POST", body: new URLSearchParams({ email, password: PASSWORD }), headers: { origin: APP_URL }, redirect: "manual" });
    const cookie = response.headers.getSetCookie().find((value) => value.startsWith(`${cookieName}=`)) ?? "";
    return cookie.slice(cookieName.length + 1).split(";")[0];
  };
  const [victimEmail, attackerEmail] = [newEmail(), newEmail()];
  const [victim, attacker] = [await signUp(victimEmail), await signUp(attackerEmail)];
  expect(victim.length).toBeGreaterThan(20);
  const init = await (await fetch(`${SERVER}/api/init`, { method: "POST", body: JSON.stringify({ sender: "@acme/cli" }) })).json();
  const cookie = `${cookieName}=${attacker}; ${cookieName}=${victim}`;
  const page = await (await fetch(`${SERVER}/init/${init.id}`, { headers: { cookie } })).text();
  expect(page).toContain("Sign in to continue");
  expect(page).toContain("two session cookies");
  expect(page).not.toContain(victimEmail);
  expect(page).not.toContain(attackerEmail);
  const approve = await fetch(`${SERVER}/init/${init.id}/approve`, {
    method: "POST",
    body: new URLSearchParams({ project: "new", name: "Planted", code_confirmed: "yes" }),
    headers: { origin: APP_URL, cookie },
    redirect: "manual",
  });
  expect(approve.status).toBe(303);
  expect(approve.headers.get("location")).toContain("error=duplicate_session_cookie");
  expect((await (await fetch(`${SERVER}/api/init/${init.id}`)).json()).status).toBe("pending");
});
