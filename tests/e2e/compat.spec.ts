import { randomBytes } from "node:crypto";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { COMPAT_URL, MAIN_URL } from "../../playwright.config";
import { newEmail, PASSWORD, pollAtItsPace } from "./flow";

// Compatibility on the wire, against the production build: a client written to the original
// platform's protocol. Its init says sender_ip "Unknown" and keeps no secret; it polls without
// Authorization and reads project_url; it keeps the init's id as the project's; it sends the
// person to /projects/{id}/link/{iv}?metadata=… and repeats POST …/link/{iv} with no
// Authorization until it gets 200; it sends `Bearer ${bearer}`. COMPAT_URL runs with
// LEGACY_LINK_APPROVAL=on (10 s approvals); MAIN_URL with the switch off.

const CLIENT = { "user-agent": "envsync-cli/1.4.2 (e2e)" };
const METADATA = Buffer.from(JSON.stringify({ sender_device: "build-box", sender_ip: "Unknown" })).toString("base64");
const newIv = () => randomBytes(16).toString("hex");

type Init = { id: string; url: string; redirect_url: string; interval: number };

async function legacyInit(request: APIRequestContext, base: string): Promise<Init> {
  const data = JSON.stringify({ sender: "envsync", sender_device: "build-box", sender_os: "linux", sender_ip: "Unknown" });
  const response = await request.post(`${base}/api/init`, { data, headers: { ...CLIENT, "content-type": "text/plain;charset=UTF-8" } });
  expect(response.status()).toBe(201);
  return response.json();
}

/** The client's link request: no Authorization, no body. */
const ask = (request: APIRequestContext, base: string, projectId: string, iv: string) => request.post(`${base}/api/projects/${projectId}/link/${iv}`, { headers: CLIENT });

/** Signs up on the init's page and approves it, into a new project named `name` or an existing one. */
async function approveInit(page: Page, init: Init, project: { name: string; existing: boolean }) {
  await page.goto(init.redirect_url);
  if (await page.getByRole("link", { name: "create an account" }).isVisible()) {
    await page.getByRole("link", { name: "create an account" }).click();
    await page.getByLabel("Email").fill(newEmail());
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Create account" }).click();
  }
  if (project.existing) await page.getByRole("radio", { name: project.name }).check();
  else await page.getByRole("textbox", { name: "New project name" }).fill(project.name);
  await page.getByRole("checkbox").check();
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("heading", { name: "Approved" })).toBeVisible();
}

test("an existing client: init with sender_ip Unknown, approval into an existing project, a link approved in the browser, the doubled Bearer", async ({ page, request }) => {
  // The person has a project already.
  await approveInit(page, await legacyInit(request, COMPAT_URL), { name: "Existing vault", existing: false });

  const init = await legacyInit(request, COMPAT_URL);
  await page.goto(init.redirect_url);
  const facts = page.getByRole("region", { name: "Who is asking" });
  await expect(facts).toContainText("Unknown");
  await expect(facts).toContainText("linux");
  await expect(facts).toContainText("reports Unknown (not an address)");
  await expect(facts).not.toContainText("Not where the request came from");
  await page.screenshot({ path: "test-results/screenshots/compat-init-unknown-ip.png", fullPage: true });
  await approveInit(page, init, { name: "Existing vault", existing: true });

  // The client polls without Authorization and reads project_url; from now on its project id is the init's id.
  const done = await (await pollAtItsPace(() => request.get(init.url, { headers: CLIENT }))).json();
  expect(done).toMatchObject({ status: "done", project_url: expect.stringContaining("/projects/") });
  expect(done).not.toHaveProperty("access_token");
  const projectId = init.id;

  // Its link request, before anyone approved it: not yet.
  const iv = newIv();
  const waiting = await ask(request, COMPAT_URL, projectId, iv);
  expect(waiting.status()).toBe(202);
  expect(await waiting.json()).toMatchObject({ success: false, code: "link_approval_pending" });

  await page.goto(`${COMPAT_URL}/projects/${projectId}/link/${iv}?metadata=${encodeURIComponent(METADATA)}`);
  await expect(page.getByRole("heading", { name: "An application asks for access" })).toBeVisible();
  const asking = page.getByRole("region", { name: "Who is asking" });
  await expect(asking).toContainText("build-box");
  await expect(asking).toContainText("Unknown");
  await expect(asking).toContainText("127.0.0.1");
  await expect(asking).toContainText("envsync-cli/1.4.2 (e2e)");
  const project = asking;
  await expect(project).toContainText("Existing vault");
  // The key pair may still be generating on a loaded machine; the page updates by itself.
  await expect(project).toContainText("SHA256:", { timeout: 30_000 });
  await page.screenshot({ path: "test-results/screenshots/compat-link-approval.png", fullPage: true });
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("status")).toContainText("Request approved");

  const linked = await ask(request, COMPAT_URL, projectId, iv);
  expect(linked.status()).toBe(200);
  const link = await linked.json();
  expect(link).toMatchObject({ success: true, bearer: expect.stringMatching(/^Bearer ey/), public: expect.stringContaining("-----BEGIN PUBLIC KEY-----") });
  // Once.
  expect((await ask(request, COMPAT_URL, projectId, iv)).status()).toBe(409);

  // The client's own use of the bearer: "Bearer " + bearer, at the init's id.
  const read = await request.get(`${COMPAT_URL}/api/projects/${projectId}`, { headers: { ...CLIENT, authorization: `Bearer ${link.bearer}` } });
  expect(read.status()).toBe(200);
  expect(await read.json()).toMatchObject({ name: "Existing vault", public: link.public, link: { iv } });

  // The project page, by the init's id too, lists the link like any other.
  await page.goto(`${COMPAT_URL}/projects/${projectId}`);
  await expect(page.getByRole("heading", { name: "Existing vault" })).toBeVisible();
  // Named by its software, as an existing client gives no sender or device for a link.
  await expect(page.getByRole("region", { name: "Linked clients" }).getByText(/^envsync-cli 1\.4\.2, approved in the browser \(iv [0-9a-f]{8}…\)$/)).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/compat-linked.png", fullPage: true });
});

test("a denied link request and an expired approval are never given", async ({ page, request }) => {
  const init = await legacyInit(request, COMPAT_URL);
  await approveInit(page, init, { name: "Denials", existing: false });
  const denied = newIv();
  expect((await ask(request, COMPAT_URL, init.id, denied)).status()).toBe(202);
  await page.goto(`${COMPAT_URL}/projects/${init.id}/link/${denied}?metadata=${encodeURIComponent(METADATA)}`);
  await page.getByRole("button", { name: "Deny" }).click();
  await expect(page.getByRole("status")).toContainText("Request denied");
  const refused = await ask(request, COMPAT_URL, init.id, denied);
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toMatchObject({ success: false, code: "link_denied" });

  const late = newIv();
  expect((await ask(request, COMPAT_URL, init.id, late)).status()).toBe(202);
  await page.goto(`${COMPAT_URL}/projects/${init.id}/link/${late}`);
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("status")).toContainText("Request approved");
  // The client does not come back within the approval's 10 s.
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole("status")).toContainText("expired", { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  await page.screenshot({ path: "test-results/screenshots/compat-link-expired.png", fullPage: true });
  const expired = await ask(request, COMPAT_URL, init.id, late);
  expect(expired.status()).toBe(410);
  expect(await expired.json()).toMatchObject({ success: false, code: "link_approval_expired" });
});

// A crafted page once approved a link ahead of any client, for whoever held the iv;
// and without credentials, 404 against 202 told which project ids exist.
test("a link no client asks for cannot be approved, and an unknown project answers as a known one", async ({ page, request }) => {
  const init = await legacyInit(request, COMPAT_URL);
  await approveInit(page, init, { name: "Crafted", existing: false });
  const iv = newIv();
  await page.goto(`${COMPAT_URL}/projects/${init.id}/link/${iv}?metadata=${encodeURIComponent(METADATA)}`);
  await expect(page.getByRole("status")).toContainText("No application is asking right now");
  await expect(page.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await page.screenshot({ path: "test-results/screenshots/compat-link-not-asked.png", fullPage: true });
  // The form sent by hand, as a crafted page would: refused, and the client later gets nothing.
  const forged = await page.request.post(`${COMPAT_URL}/projects/${init.id}/link/${iv}/approve`, { headers: { origin: COMPAT_URL }, form: {}, maxRedirects: 0 });
  expect(forged.status()).toBe(303);
  expect(forged.headers().location).toContain("error=no_client_waiting");
  const known = await ask(request, COMPAT_URL, init.id, iv);
  expect(known.status()).toBe(202);
  const unknown = await ask(request, COMPAT_URL, "AAAAAAAAAAAAAAAAAAAAAA", newIv());
  expect(unknown.status()).toBe(202);
  expect(await unknown.json()).toEqual(await known.json());
});

test("with LEGACY_LINK_APPROVAL off the page does not exist and a POST without Authorization is 401", async ({ page, request }) => {
  const init = await legacyInit(request, MAIN_URL);
  const iv = newIv();
  const response = await page.goto(`${MAIN_URL}/projects/${init.id}/link/${iv}?metadata=${encodeURIComponent(METADATA)}`);
  expect(response?.status()).toBe(404);
  const refused = await ask(request, MAIN_URL, init.id, iv);
  expect(refused.status()).toBe(401);
  expect(await refused.json()).toMatchObject({ success: false, code: "unauthorized" });
});
