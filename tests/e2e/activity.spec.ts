import { expect, test } from "@playwright/test";
import { createLink } from "../helpers/journey.mjs";
import { approveAsNewPerson, createInit, over, status } from "./flow";

// The account's activity page (docs/activity.md): after a person approves a client and the
// client links itself, the login is one entry that tells it in order (opened, approved by you
// from this browser, token collected, linked), the client's own words shown as text, the
// details folded; "This wasn't me" takes the approval back and says what it revoked.

test("a person approves a client, the client links itself, and the activity page tells the login as one entry", async ({ page, request }) => {
  const init = await createInit(request);
  await approveAsNewPerson(page, init, "Activity vault");
  const collected = await status(request, init, init.secret);
  const link = await createLink(over(request), collected.project_id, collected.access_token, { headers: { "user-agent": "acme-cli/2.0 (e2e)" } });

  await page.getByRole("link", { name: "Activity", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Activity", level: 1 })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Activity" })).toHaveAttribute("aria-current", "page");
  const entries = page.getByRole("list", { name: "Activity, newest first" }).getByRole("listitem").filter({ has: page.locator("ol.story") });
  await expect(entries).toHaveCount(1);
  const login = entries.first();
  // Named by the client, as it reported itself; its device is text, never markup.
  await expect(login.locator(".entry-title")).toHaveText("@acme/cli on build box <b>bold</b>");
  await expect(login.locator("b")).toHaveCount(0);
  const steps = login.locator("ol.story > li");
  await expect(steps).toHaveCount(4);
  await expect(steps.nth(0)).toContainText("Opened by you");
  // The approval says the access lifetime chosen (the preselected 90 days) and where the approving browser was, not the client.
  await expect(steps.nth(1)).toContainText(/Approved by you, access for 90 days from 127\.0\.0\.1 \(Chrome [\d.]+ on [\w ]+\)/);
  await expect(steps.nth(2)).toContainText("Access token collected from 127.0.0.1");
  await expect(steps.nth(3)).toContainText("Linked from 127.0.0.1 (acme-cli 2.0)");
  await expect(steps.nth(3).getByTitle("acme-cli/2.0 (e2e)")).toBeVisible();

  // The details fold out: the client's report, the iv, and the token, which leads to where it is revoked.
  await expect(login.getByText(link.iv)).toBeHidden();
  await login.getByText("Details").click();
  await expect(login.getByText(link.iv)).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/activity.png", fullPage: true });
  await login.getByRole("link", { name: "@acme/cli on build box <b>bold</b>" }).click();
  await expect(page.getByRole("heading", { name: "Access tokens", level: 1 })).toBeVisible();

  // The project links from the activity to its page.
  await page.goBack();
  await login.getByRole("link", { name: "Activity vault" }).click();
  await expect(page.getByRole("heading", { name: "Activity vault" })).toBeVisible();

  // "This wasn't me" (docs/pages.md): one confirmation revokes everything the approval gave, and the page says what.
  await page.goBack();
  await login.getByText("This wasn’t me…").click();
  await login.getByRole("button", { name: "Yes, revoke everything" }).click();
  const revoked = page.getByRole("status", { name: "What the report revoked" });
  await expect(revoked).toContainText("1 access token: @acme/cli on build box <b>bold</b>");
  await expect(revoked).toContainText(`1 link · @acme/cli on build box <b>bold</b> (iv ${link.iv})`);
  await expect(entries.first().locator("ol.story > li").last()).toContainText("Reported by you as not yours");
  await expect(entries.first().getByText("This wasn’t me…")).toHaveCount(0);
  // Its bearer and its access token are refused at once.
  expect((await request.get(`/api/projects/${collected.project_id}`, { headers: { authorization: link.bearer } })).status()).toBe(401);
  expect((await request.post(`/api/projects/${collected.project_id}/link/${"b".repeat(32)}`, { headers: { authorization: `Bearer ${collected.access_token}` } })).status()).toBe(401);
});

test("the activity page asks a signed-out visitor to sign in and come back", async ({ page }) => {
  await page.goto("/activity");
  await expect(page).toHaveURL(/\/signin\?returnTo=%2Factivity$/);
});
