import { randomBytes } from "node:crypto";
import { createServer, request as httpRequest, type OutgoingHttpHeaders, type Server } from "node:http";
import { expect, test, type Page } from "@playwright/test";
import { PASSKEY_PHISHING_PORTS, scratchDatabase } from "../../playwright.config";
import { createInit } from "../helpers/journey.mjs";
import { PASSWORD, sendFrom, STARTED_IT } from "./flow";
import { addPasskeyInPage, signUpInPage, virtualAuthenticator } from "./passkey-steps";
import { startOwnServer, type OwnServer } from "./own-server";

// Passkeys, in Chromium: a real-time phishing proxy (as Evilginx is) in front of the
// service. It forwards every request, rewriting Host, Origin and Referer to the service's and
// redirects back to itself, so the person signs in with their password and clicks Approve on the
// real pages, served from the phisher's host. Only the passkey stops it: the browser either
// refuses to use the service's passkey on the proxy's origin, or names that origin in what it
// signs, which the service refuses. The service is named by a host name (a browser refuses
// WebAuthn on an IP address) under which a host can exist: initlink.localhost (Chromium resolves
// every *.localhost to loopback and treats it as a secure context).

const PORT = PASSKEY_PHISHING_PORTS.server;
const PROXY_PORT = PASSKEY_PHISHING_PORTS.proxy;
const SITE = `http://initlink.localhost:${PORT}`;
/** The attacker's client, at the server's port (Node resolves no *.localhost). */
const attacker = sendFrom(`http://127.0.0.1:${PORT}`, "127.0.0.1");

let server: OwnServer;
let proxy: Server;
/** The bodies of the approvals the proxy relayed. */
const relayedApprovals: string[] = [];

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  proxy = phishingProxy();
  await new Promise<void>((resolve) => proxy.listen(PROXY_PORT, "127.0.0.1", resolve));
  server = await startOwnServer(PORT, { APP_URL: SITE, DATABASE_URL: scratchDatabase("passkey-phishing"), MASTER_KEY: randomBytes(32).toString("base64"), WEB_CONCURRENCY: "1" });
});

test.beforeEach(() => {
  relayedApprovals.length = 0;
});

test.afterAll(() => {
  proxy.close();
  server.stop();
});

/** The phisher's reverse proxy: whatever host it is reached by, it passes for the service. */
function phishingProxy(): Server {
  return createServer((incoming, outgoing) => {
    const phishingOrigin = `http://${incoming.headers.host}`;
    const headers: OutgoingHttpHeaders = { ...incoming.headers, host: new URL(SITE).host };
    for (const name of ["origin", "referer"] as const) {
      const value = incoming.headers[name];
      if (value !== undefined) headers[name] = value.replace(phishingOrigin, SITE);
    }
    const body: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => body.push(chunk));
    incoming.on("end", () => {
      if (incoming.method === "POST" && /^\/init\/[^/]+\/approve$/.test(incoming.url ?? "")) relayedApprovals.push(Buffer.concat(body).toString());
    });
    const upstream = httpRequest({ host: "127.0.0.1", port: PORT, method: incoming.method, path: incoming.url, headers }, (answer) => {
      const location = answer.headers.location;
      outgoing.writeHead(answer.statusCode ?? 502, { ...answer.headers, ...(location === undefined ? {} : { location: location.replace(SITE, phishingOrigin) }) });
      answer.pipe(outgoing);
    });
    upstream.on("error", () => outgoing.destroy());
    outgoing.on("close", () => upstream.destroy());
    incoming.pipe(upstream);
  });
}

/** A person whose approvals need a passkey (added on the real site), and an attacker's init. */
async function victimAndInit(page: Page) {
  const authenticator = await virtualAuthenticator(page);
  const email = await signUpInPage(page, SITE);
  await addPasskeyInPage(page, SITE, "laptop", { guardApprovals: true });
  const init = await createInit(attacker, { sender: "@acme/cli" });
  return { authenticator, email, init };
}

/** On the phishing host: the person signs in with their password (the proxy now has it) and approves the init. */
async function approveThroughProxy(page: Page, phishingOrigin: string, email: string, init: { id: string; user_code: string }) {
  await page.goto(`${phishingOrigin}/signin?returnTo=${encodeURIComponent(`/init/${init.id}`)}`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(`${phishingOrigin}/init/${init.id}`);
  await page.getByLabel(STARTED_IT).check();
  await page.getByRole("button", { name: "Approve" }).click();
}

/** The init's status as anyone may read it (no secret: nothing is collected); on slow_down it waits Retry-After once and asks again. */
async function initStatus(id: string): Promise<string> {
  let answer = await attacker("GET", `/api/init/${id}`);
  if (answer.status === 429) {
    await new Promise((resolve) => setTimeout(resolve, Number(answer.headers["retry-after"]) * 1000));
    answer = await attacker("GET", `/api/init/${id}`);
  }
  return (JSON.parse(answer.text) as { status: string }).status;
}

/** On the real site the same person approves the same init: what refused it above was the origin alone. */
async function approveOnTheSite(page: Page, init: { id: string; user_code: string }) {
  await page.goto(`${SITE}/init/${init.id}`);
  await page.getByLabel(STARTED_IT).check();
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("heading", { name: "Approved" })).toBeVisible();
}

test("a phishing proxy on a host under the service's: the browser signs for the proxy's origin, and the service refuses the approval", async ({ page }) => {
  const { authenticator, email, init } = await victimAndInit(page);
  const [before] = await authenticator.credentials();
  const phishingOrigin = `http://evil.initlink.localhost:${PROXY_PORT}`;
  await approveThroughProxy(page, phishingOrigin, email, init);

  await expect(page.getByRole("alert").filter({ hasText: "Your passkey's answer could not be verified" })).toBeVisible();
  expect(page.url()).toBe(`${phishingOrigin}/init/${init.id}?error=passkey_rejected`);
  // The passkey was used, and what it signed names the proxy's origin.
  expect((await authenticator.credentials())[0].signCount).toBeGreaterThan(before.signCount);
  expect(relayedApprovals).toHaveLength(1);
  const assertion = JSON.parse(new URLSearchParams(relayedApprovals[0]).get("passkey_assertion") ?? "{}") as { response?: { clientDataJSON?: string } };
  expect(JSON.parse(Buffer.from(assertion.response?.clientDataJSON ?? "", "base64url").toString())).toMatchObject({ type: "webauthn.get", origin: phishingOrigin });
  expect(await initStatus(init.id)).toBe("pending");

  await approveOnTheSite(page, init);
  expect(await initStatus(init.id)).toBe("done");
});

test("a phishing proxy on another site: the browser will not use the service's passkey there, and nothing is approved", async ({ page }) => {
  const { authenticator, email, init } = await victimAndInit(page);
  const [before] = await authenticator.credentials();
  const phishingOrigin = `http://evil.localhost:${PROXY_PORT}`;
  await approveThroughProxy(page, phishingOrigin, email, init);

  // The options came through the proxy; the browser refused them for this origin, and the passkey was not used.
  const refused = page.getByRole("alert").filter({ hasText: "Not approved: your passkey did not confirm it." });
  await expect(refused).toContainText('The RP ID "initlink.localhost" is invalid for this domain');
  expect((await authenticator.credentials())[0].signCount).toBe(before.signCount);
  expect(relayedApprovals).toHaveLength(0);
  expect(await initStatus(init.id)).toBe("pending");

  await approveOnTheSite(page, init);
  expect(await initStatus(init.id)).toBe("done");
});
