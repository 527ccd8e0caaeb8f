import { expect, test, type BrowserContext } from "@playwright/test";
import { approveAsNewPerson, createInit, newEmail, PASSWORD, signUpFromInitPage, STARTED_IT, status } from "./flow";

test("a person signs up from the init page, confirms they started it, approves, and the client collects its token once", async ({ page, request }) => {
  const init = await createInit(request);
  await page.goto(init.redirect_url);
  await expect(page.getByRole("heading", { name: "Sign in to continue" })).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/init-signed-out.png", fullPage: true });

  await signUpFromInitPage(page, newEmail());
  await expect(page).toHaveURL(init.redirect_url);
  const facts = page.getByRole("region", { name: "Who is asking" });
  await expect(facts).toContainText("@acme/cli");
  await expect(facts).toContainText("build box <b>bold</b>");
  // The client sent no user_code_shown: the box names what and when, and no code is shown.
  await expect(page.locator("label.code-check")).toContainText("I started this myself: @acme/cli on build box <b>bold</b>, ");
  await expect(page.getByText(init.user_code)).toHaveCount(0);
  await page.screenshot({ path: "test-results/screenshots/init-pending-signed-in.png", fullPage: true });

  expect((await status(request, init)).status).toBe("pending");
  await page.getByRole("textbox", { name: "New project name" }).fill("Payments API");
  await page.getByLabel(STARTED_IT).check();
  await page.getByRole("button", { name: "Approve" }).click();

  await expect(page.getByRole("heading", { name: "Approved" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Payments API" })).toHaveAttribute("href", `/projects/${init.id}`);
  await expect(page.getByText("return to your terminal")).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/init-done.png", fullPage: true });

  const done = await status(request, init);
  expect(done).toMatchObject({ status: "done", project_id: init.id, project_url: `${new URL(init.url).origin}/projects/${init.id}` });
  const collected = await status(request, init, init.secret);
  expect(collected.access_token).toMatch(/^ilat_/);
  expect(collected.project).toEqual({ id: init.id, name: "Payments API", team_id: null });
  const again = await status(request, init, init.secret);
  expect(again.access_token).toBeUndefined();

  await page.getByRole("link", { name: "Payments API" }).click();
  await expect(page.getByRole("heading", { name: "Payments API" })).toBeVisible();
  // The key pair is generated after approval; the page shows it once ready, without a reload.
  await expect(page.getByLabel("Public key")).toContainText("-----BEGIN PUBLIC KEY-----", { timeout: 30_000 });
});

test("Approve needs the code confirmed, and Deny denies", async ({ page, request }) => {
  const init = await createInit(request);
  await page.goto(init.redirect_url);
  await signUpFromInitPage(page, newEmail());
  await page.getByRole("button", { name: "Approve" }).click();
  // The unchecked, required confirmation keeps the form from being sent.
  await expect(page.getByRole("region", { name: "Your decision" })).toBeVisible();
  expect((await status(request, init)).status).toBe("pending");
  await page.getByRole("button", { name: "Deny" }).click();
  await expect(page.getByRole("heading", { name: "Denied" })).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/init-denied.png", fullPage: true });
  const denied = await status(request, init, init.secret);
  expect(denied.status).toBe("denied");
  expect(denied.access_token).toBeUndefined();
});

/** Approves the init in a new tab of the signed-in browser, and waits for that tab to say so. */
async function approveInNewTab(context: BrowserContext, init: { redirect_url: string; user_code: string }): Promise<void> {
  const other = await context.newPage();
  await other.goto(init.redirect_url);
  await other.getByLabel(STARTED_IT).check();
  await other.getByRole("button", { name: "Approve" }).click();
  await expect(other.getByRole("heading", { name: "Approved" })).toBeVisible();
}

test("the page updates without a reload when another tab approves", async ({ page, context, request }) => {
  const init = await createInit(request);
  await page.goto(init.redirect_url);
  await signUpFromInitPage(page, newEmail());
  await approveInNewTab(context, init);
  await expect(page.getByRole("status")).toContainText("Approved", { timeout: 15_000 });
  await expect(page.getByRole("heading", { name: "Approved" })).toBeVisible();
});

// Each tab follows the init's event stream; a stream is not a poll, so neither tab slows the other.
test("two tabs of one browser both show an approval made in a third, without a reload", async ({ page, context, request }) => {
  const init = await createInit(request);
  await page.goto(init.redirect_url);
  await signUpFromInitPage(page, newEmail());
  const second = await context.newPage();
  await second.goto(init.redirect_url);
  const streams = [page, second].map((tab) => tab.waitForResponse((response) => response.url().endsWith(`/api/init/${init.id}/events`)));
  await Promise.all([page.reload(), second.reload()]);
  for (const stream of await Promise.all(streams)) expect(stream.headers()["content-type"]).toContain("text/event-stream");
  for (const tab of [page, second]) await expect(tab.getByRole("status")).toContainText("Waiting for your decision");
  await approveInNewTab(context, init);
  for (const tab of [page, second]) {
    await expect(tab.getByRole("status")).toContainText("Approved");
    await expect(tab.getByRole("heading", { name: "Approved" })).toBeVisible();
  }
});

// A server that holds as many waits as it may refuses the stream (503 server_busy, as
// lib/api/route.ts answers it; a buffering proxy fails it too): the page polls.
test("a page whose event stream is refused follows the init by polling", async ({ page, context, request }) => {
  const init = await createInit(request);
  // Refused from the first page on: a stream the page opened before would be answered 200 (and
  // taken for the reloaded page's).
  await page.route(`**/api/init/${init.id}/events`, (route) =>
    route.fulfill({ status: 503, headers: { "retry-after": "5" }, contentType: "application/json", json: { error: "This server holds as many waiting requests as it can. Poll the status instead.", code: "server_busy" } }),
  );
  await page.goto(init.redirect_url);
  await signUpFromInitPage(page, newEmail());
  const refused = page.waitForResponse((response) => response.url().endsWith(`/api/init/${init.id}/events`));
  const polled = page.waitForResponse((response) => response.url().endsWith(`/api/init/${init.id}`) && response.request().method() === "GET");
  await page.reload();
  expect((await refused).status()).toBe(503);
  expect(await (await polled).json()).toMatchObject({ status: "pending" });
  await approveInNewTab(context, init);
  await expect(page.getByRole("status")).toContainText("Approved", { timeout: 15_000 });
});

test("another person can neither see nor approve into someone else's project", async ({ browser, page, request }) => {
  const init = await createInit(request);
  await approveAsNewPerson(page, init);

  const stranger = await (await browser.newContext()).newPage();
  await stranger.goto("/signup");
  await stranger.getByLabel("Email").fill(newEmail());
  await stranger.getByLabel("Password").fill(PASSWORD);
  await stranger.getByRole("button", { name: "Create account" }).click();
  const response = await stranger.goto(`/projects/${init.id}`);
  expect(response?.status()).toBe(404);
  await stranger.goto(init.redirect_url);
  await expect(stranger.getByRole("heading", { name: "Approved" })).toBeVisible();
  await expect(stranger.getByRole("link", { name: "@acme/cli" })).toHaveCount(0);
  await expect(stranger.getByRole("button", { name: "Approve" })).toHaveCount(0);
});

test("a signed-out visitor of a project page is sent to sign in and back", async ({ page }) => {
  await page.goto("/projects");
  await expect(page).toHaveURL(/\/signin\?returnTo=%2Fprojects$/);
  await page.getByRole("link", { name: "Create an account" }).click();
  // The link navigates client-side: wait for the sign-up form, or the fields filled next would
  // be the sign-in form's, about to be replaced.
  await expect(page.getByRole("heading", { name: "Create an account" })).toBeVisible();
  await page.getByLabel("Email").fill(newEmail());
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { name: "Your projects" })).toBeVisible();
});
