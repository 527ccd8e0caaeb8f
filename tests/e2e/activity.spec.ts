import { expect, test } from "@playwright/test";
import { createLink } from "../helpers/journey.mjs";
import { approveAsNewPerson, createInit, over, status } from "./flow";

// The account's activity page (docs/activity.md): after a person approves a client and the
// client links itself, both are listed, newest first, with where they came from, the client's
// own words shown as text.

test("a person approves a client, the client links itself, and the activity page shows both", async ({ page, request }) => {
  const init = await createInit(request);
  await approveAsNewPerson(page, init, "Activity vault");
  const collected = await status(request, init, init.secret);
  const link = await createLink(over(request), collected.project_id, collected.access_token, { headers: { "user-agent": "acme-cli/2.0 (e2e)" } });

  await page.getByRole("link", { name: "Activity", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Activity", level: 1 })).toBeVisible();
  const entries = page.getByRole("list", { name: "Activity, newest first" }).getByRole("listitem");
  await expect(entries.first()).toContainText("Client linked to a project");
  const linked = entries.filter({ hasText: "Client linked to a project" });
  await expect(linked).toContainText("Activity vault");
  // The client software, read from its User-Agent (the whole header in the title).
  await expect(linked).toContainText("acme-cli 2.0");
  await expect(linked.getByTitle("acme-cli/2.0 (e2e)")).toBeVisible();
  await expect(linked).toContainText(link.iv);
  // The device the client reported is text, never markup.
  await expect(linked).toContainText("build box <b>bold</b>");
  await expect(linked.locator("b")).toHaveCount(0);
  const approved = entries.filter({ hasText: "Request approved" });
  await expect(approved).toContainText("@acme/cli");
  await expect(approved).toContainText("Activity vault");
  await expect(entries.filter({ hasText: "Client collected its access token" })).toHaveCount(1);
  await expect(entries.filter({ hasText: "You opened a client's request" })).toHaveCount(1);
  await expect(entries).toHaveCount(4);
  await page.screenshot({ path: "test-results/screenshots/activity.png", fullPage: true });

  // The project links from the activity to its page.
  await approved.getByRole("link", { name: "Activity vault" }).click();
  await expect(page.getByRole("heading", { name: "Activity vault" })).toBeVisible();
});

test("the activity page asks a signed-out visitor to sign in and come back", async ({ page }) => {
  await page.goto("/activity");
  await expect(page).toHaveURL(/\/signin\?returnTo=%2Factivity$/);
});
