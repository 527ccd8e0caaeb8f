import { constants, publicEncrypt, randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { MAIN_URL } from "../../playwright.config";
import { createLink } from "../helpers/journey.mjs";
import { approveAsNewPerson, createInit, over, status } from "./flow";

// The whole journey against the production build: a CLI starts an init, a person approves it
// in Chromium, the CLI collects its access token, links itself to the project, and uses the
// bearer; then the person revokes the link on the project page and the bearer stops working.

test("link a client to a project, use its bearer, and revoke it from the project page", async ({ page, request }) => {
  const init = await createInit(request);
  await approveAsNewPerson(page, init, "Secrets vault");

  const collected = await status(request, init, init.secret);
  expect(collected.access_token).toMatch(/^ilat_[A-Za-z0-9_-]{43}$/);
  const projectId: string = collected.project_id;

  const link = await createLink(over(request), projectId, collected.access_token, { headers: { "user-agent": "acme-cli/2.0 (e2e)" } });
  const { iv } = link;
  expect(link).toMatchObject({ success: true, public: expect.stringContaining("-----BEGIN PUBLIC KEY-----") });
  expect(link).not.toHaveProperty("error");

  // Anyone can verify the bearer with the published keys, fetched as a stranger would.
  const jwt = link.bearer.replace(/^Bearer /, "");
  const { payload } = await jwtVerify(jwt, createRemoteJWKSet(new URL("/.well-known/jwks.json", MAIN_URL)), {
    issuer: MAIN_URL,
    audience: `${MAIN_URL}/api/projects/${projectId}`,
    algorithms: ["EdDSA"],
  });
  // account_id: the approving account, for the platform to map the login to its own user.
  expect(payload).toMatchObject({ sub: link.link_id, project_id: projectId, account_id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/) });

  // What existing clients do with `public`: encrypt 255-byte chunks with RSA-OAEP.
  const encrypted = publicEncrypt({ key: link.public, padding: constants.RSA_PKCS1_OAEP_PADDING }, randomBytes(255));
  expect(encrypted).toHaveLength(512);

  const project = await request.get(`/api/projects/${projectId}`, { headers: { authorization: link.bearer } });
  expect(project.status()).toBe(200);
  expect(await project.json()).toMatchObject({ id: projectId, name: "Secrets vault", public: link.public, link: { id: link.link_id, iv } });

  // The project page shows the same key and fingerprint, and the linked client.
  await page.goto(`/projects/${projectId}`);
  await expect(page.getByRole("heading", { name: "Secrets vault" })).toBeVisible();
  await expect(page.getByText(link.public_fingerprint)).toBeVisible();
  // The PEM folds out beneath the fingerprint.
  await page.getByText("The key itself (PEM)").click();
  await expect(page.getByLabel("Public key")).toContainText(link.public.trim().split("\n")[1]);
  // Renaming changes the name only.
  await page.getByText("Rename…").click();
  await page.getByLabel("New name").fill("Secrets vault (prod)");
  await page.getByRole("button", { name: "Rename", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Secrets vault (prod)", level: 1 })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Renamed." })).toHaveText("Renamed. Its links, key and tokens are as they were.");
  // The client is named by its sender and device (its access token's name), its software briefly.
  const clients = page.getByRole("region", { name: "Linked clients" });
  await expect(clients.getByText("@acme/cli on build box <b>bold</b>", { exact: true })).toBeVisible();
  await expect(clients).toContainText("acme-cli 2.0");
  await expect(clients).not.toContainText("(e2e)");
  await page.screenshot({ path: "test-results/screenshots/project-linked.png", fullPage: true });
  // Revoke asks first, then says it was done.
  await clients.getByText("Revoke…").click();
  await expect(clients).toContainText("This service and verifiers that introspect refuse its bearer at once; a verifier that checks it offline accepts it until it expires.");
  await clients.getByRole("button", { name: "Yes, revoke" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Revoked the link of “@acme/cli on build box <b>bold</b>”" })).toBeVisible();
  await expect(clients).toContainText("Revoked");
  await page.screenshot({ path: "test-results/screenshots/project-link-revoked.png", fullPage: true });

  const refused = await request.get(`/api/projects/${projectId}`, { headers: { authorization: link.bearer } });
  expect(refused.status()).toBe(401);
  expect(await refused.json()).toMatchObject({ code: "invalid_token" });
});

test("the JWKS is published at its well-known address, with public keys only", async ({ request }) => {
  const response = await request.get("/.well-known/jwks.json");
  expect(response.status()).toBe(200);
  expect(response.headers()["cache-control"]).toContain("max-age=");
  const { keys } = await response.json();
  expect(keys.length).toBeGreaterThan(0);
  for (const key of keys) {
    expect(key).toMatchObject({ kty: "OKP", crv: "Ed25519", alg: "EdDSA", use: "sig" });
    expect(key).not.toHaveProperty("d");
  }
});

test("a person makes an access token on the settings page, a client links with it, and revoking it stops the client", async ({ page, request }) => {
  const init = await createInit(request);
  await approveAsNewPerson(page, init, "Build cache");

  await page.getByRole("link", { name: "Settings", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Access tokens" })).toBeVisible();
  await page.getByLabel("Token name").fill("ci runner <script>alert(1)</script>");
  await page.getByLabel("Projects").selectOption({ label: "Build cache" });
  await page.getByLabel("Expires").selectOption("30");
  await page.getByRole("button", { name: "Create token" }).click();
  const shown = page.getByLabel("New access token");
  await expect(shown).toHaveValue(/^ilat_[A-Za-z0-9_-]{43}$/);
  const token = await shown.inputValue();
  expect(page.url()).not.toContain(token);
  expect((await page.context().cookies()).map((cookie) => cookie.value)).not.toContain(token);
  const tokens = page.getByRole("list").filter({ hasText: "ci runner <script>alert(1)</script>" });
  await expect(tokens).toContainText("Build cache");
  await page.screenshot({ path: "test-results/screenshots/settings-token-created.png", fullPage: true });

  await createLink(over(request), init.id, token);

  // Shown once: after a reload the token is gone from the page.
  await page.reload();
  await expect(page.getByLabel("New access token")).toHaveCount(0);
  await expect(page.getByText(token)).toHaveCount(0);
  const entry = page.getByRole("listitem").filter({ hasText: "ci runner" });
  // Its start stays in the list, to match against a token someone holds (ilat_ and 4 characters).
  await expect(entry).toContainText(`${token.slice(0, 9)}…`);
  await expect(entry).toContainText("Active");
  await entry.getByText("Revoke…").click();
  await entry.getByRole("button", { name: "Yes, revoke" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Revoked the token “ci runner <script>alert(1)</script>”" })).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: "ci runner" })).toContainText("Revoked");

  const refused = await request.post(`/api/projects/${init.id}/link/${randomBytes(16).toString("hex")}`, { headers: { authorization: `Bearer ${token}` } });
  expect(refused.status()).toBe(401);
  expect(await refused.json()).toMatchObject({ success: false, code: "invalid_token" });
});
