import { expect, test, type Locator, type Page } from "@playwright/test";
import { createInit, newEmail, PASSWORD, STARTED_IT } from "./flow";
import { startReceiver, type Receiver } from "./webhook-receiver";

// Webhooks as a person sets them up (docs/pages.md, Webhooks): an endpoint added from the page
// for a real receiver on 127.0.0.1 that verifies every request with the Standard Webhooks library
// and the secret the page showed once; an approval in the browser delivered to it and listed in
// the endpoint's delivery log; a test event, Send again, a rotation (the receiver then verifies
// with the new secret alone), Disable and Enable (a test event waits while disabled), Delete.

test.describe.configure({ timeout: 120_000 });

/** Reloads the page until `row` says `text`: the server's worker sends due events every second. */
async function untilRowSays(page: Page, row: Locator, text: string) {
  await expect(async () => {
    await page.reload();
    await expect(row.first()).toContainText(text, { timeout: 1_000 });
  }).toPass({ timeout: 30_000, intervals: [500, 1_000] });
}

const typesOf = (receiver: Receiver) => receiver.events.map((event) => event.type);

test("a person adds an endpoint, sees an approval delivered, signed and logged, tests it, rotates its secret, disables, enables and deletes it", async ({ page, request }) => {
  const receiver = await startReceiver();
  try {
    await page.goto("/signup");
    await page.getByLabel("Email").fill(newEmail());
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page).not.toHaveURL(/\/signup/);

    // Settings, then Webhooks: the header's Settings stays current there.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
    await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Webhooks" }).click();
    await expect(page.getByRole("heading", { name: "Webhooks", level: 1 })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" })).toHaveAttribute("aria-current", "true");
    await expect(page.getByRole("region", { name: "Your endpoints" })).toContainText("No endpoints of your own yet");

    // A team event for a personal endpoint is refused, under the event types.
    const form = page.getByRole("form", { name: "New endpoint" });
    await form.getByLabel("Endpoint URL").fill(receiver.url);
    await form.getByLabel("Description (optional)").fill("Deploy bot");
    await form.getByLabel("member.added", { exact: true }).check();
    await form.getByRole("button", { name: "Add endpoint" }).click();
    await expect(form.getByRole("alert")).toHaveText("Team events go to a team's endpoints only.");

    await form.getByLabel("member.added", { exact: true }).uncheck();
    await form.getByLabel("init.approved", { exact: true }).check();
    await form.getByLabel("link.created", { exact: true }).check();
    await form.getByRole("button", { name: "Add endpoint" }).click();
    const added = page.getByRole("region", { name: "Endpoint added" });
    await expect(added).toContainText("shown once");
    const secret = await added.getByLabel("Signing secret").inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    receiver.trust(secret);
    const entry = page.getByRole("region", { name: "Your endpoints" }).getByRole("listitem");
    await expect(entry).toContainText("Deploy bot");
    await expect(entry).toContainText("init.approved, link.created");
    await expect(entry).toContainText("Enabled");

    // A client's login approved in the browser, into a new project: the receiver gets it, signed.
    const init = await createInit(request);
    await page.goto(init.redirect_url);
    await page.getByRole("textbox", { name: "New project name" }).fill("Deploys");
    await page.getByLabel(STARTED_IT).check();
    await page.getByRole("button", { name: "Approve" }).click();
    await expect(page.getByRole("heading", { name: "Approved" })).toBeVisible();
    await expect.poll(() => typesOf(receiver), { timeout: 20_000 }).toContain("init.approved");
    const approved = receiver.events.find((event) => event.type === "init.approved")!;
    expect(approved.data).toMatchObject({ project: { name: "Deploys" }, client: { sender: "@acme/cli" } });

    // The endpoint's page logs the delivery.
    await page.goto("/webhooks");
    await page.getByRole("link", { name: receiver.url }).click();
    await expect(page.getByRole("heading", { name: "Webhook endpoint", level: 1 })).toBeVisible();
    const log = page.getByRole("table", { name: "Deliveries" });
    const approvedRow = log.getByRole("row").filter({ hasText: "init.approved" });
    await untilRowSays(page, approvedRow, "Delivered");
    await expect(approvedRow).toContainText("204");

    // A test event.
    await page.getByRole("button", { name: "Send test event" }).click();
    await expect(page).toHaveURL(/\?tested=1$/);
    await expect(page.getByRole("status").filter({ hasText: "Test event queued" })).toBeVisible();
    await expect.poll(() => typesOf(receiver), { timeout: 20_000 }).toContain("webhook.test");
    await untilRowSays(page, log.getByRole("row").filter({ hasText: "webhook.test" }), "Delivered");

    // Send again: the same message, with the same webhook-id, for receivers that de-duplicate.
    await approvedRow.getByRole("button", { name: "Send again" }).click();
    await expect(page).toHaveURL(/\?resent=1$/);
    await expect.poll(() => receiver.events.filter((event) => event.id === approved.id).length, { timeout: 20_000 }).toBe(2);

    // Rotate: the new secret is shown once; for the overlap each request is signed with both, so
    // the receiver verifies with the new one alone.
    await page.getByText("Rotate secret…").click();
    await expect(page.getByLabel("Hours the current secret keeps signing")).toHaveValue("24");
    await page.getByRole("button", { name: "Rotate secret" }).click();
    const rotated = await page.getByLabel("New signing secret").inputValue();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await expect(page.getByText("still signs until")).toBeVisible();
    receiver.trust(rotated);
    const tests = receiver.events.filter((event) => event.type === "webhook.test").length;
    await page.getByRole("button", { name: "Send test event" }).click();
    await expect.poll(() => receiver.events.filter((event) => event.type === "webhook.test").length, { timeout: 20_000 }).toBe(tests + 1);
    expect(receiver.events.at(-1)?.signatures).toBe(2);

    // Disabled, a test event waits; enabled, it is sent.
    await page.getByRole("button", { name: "Disable" }).click();
    await expect(page).toHaveURL(/\?disabled=1$/);
    await expect(page.getByRole("definition").filter({ hasText: "Disabled" })).toBeVisible();
    await page.getByRole("button", { name: "Send test event" }).click();
    // Queued, not sent (the API suite proves that a disabled endpoint's messages wait: tests/api/events/routing.test.ts).
    await expect(page.getByRole("definition").filter({ hasText: "1 event" })).toBeVisible();
    await page.getByRole("button", { name: "Enable" }).click();
    await expect(page).toHaveURL(/\?enabled=1$/);
    await expect(page.getByRole("definition").filter({ hasText: "Enabled" })).toBeVisible();
    await expect.poll(() => receiver.events.filter((event) => event.type === "webhook.test").length, { timeout: 20_000 }).toBe(tests + 2);
    expect(receiver.rejected).toEqual([]);

    // Delete, confirmed first.
    const endpointUrl = page.url().replace(/\?.*$/, "");
    await page.getByText("Delete…").click();
    await page.getByRole("button", { name: "Yes, delete the endpoint" }).click();
    await expect(page).toHaveURL(/\/webhooks\?deleted=1$/);
    await expect(page.getByRole("status").filter({ hasText: "Endpoint deleted." })).toBeVisible();
    await expect(page.getByRole("link", { name: receiver.url })).toHaveCount(0);
    expect((await page.goto(endpointUrl))?.status()).toBe(404);
  } finally {
    await receiver.close();
  }
});
