import { expect, test } from "@playwright/test";
import { COMPAT_URL } from "../../playwright.config";
import { createInit } from "../helpers/journey.mjs";
import { over, STARTED_IT } from "./flow";
import { addPasskeyInPage, signUpInPage, virtualAuthenticator } from "./passkey-steps";

// Issue 28, item 2: passkeys in Chromium, its virtual authenticator standing for the device, on
// COMPAT_URL (a host name: WebAuthn refuses IP addresses). The rules (another origin, replays,
// counters, another approval's assertion) are in tests/api/passkeys/.

test("a passkey added in settings signs the person in with no password", async ({ page }) => {
  const authenticator = await virtualAuthenticator(page);
  const email = await signUpInPage(page, COMPAT_URL);
  await addPasskeyInPage(page, COMPAT_URL, "work laptop");
  const [credential] = await authenticator.credentials();
  expect(credential).toMatchObject({ isResidentCredential: true, rpId: "localhost" });
  await expect(page.getByRole("listitem").filter({ hasText: "work laptop" })).toContainText("never");
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.goto(`${COMPAT_URL}/signin?returnTo=%2Fsettings%2Fpasskeys`);
  await page.getByRole("button", { name: "Use a passkey" }).click();
  await expect(page.getByRole("heading", { name: "Passkeys", level: 1 })).toBeVisible();
  await expect(page.locator("header.site .account-email")).toHaveText(email);
  // The signature counter the service keeps moved with the authenticator's.
  expect((await authenticator.credentials())[0].signCount).toBeGreaterThan(credential.signCount);
  await expect(page.getByRole("listitem").filter({ hasText: "work laptop" })).not.toContainText("never");
  // The activity records the new passkey.
  await page.goto(`${COMPAT_URL}/activity`);
  await expect(page.getByRole("listitem").filter({ hasText: "Passkey added" })).toContainText("work laptop");
});

test("with approvals needing a passkey, Approve asks for one; without it the approval is refused and the page says why", async ({ page, request }) => {
  const authenticator = await virtualAuthenticator(page);
  await signUpInPage(page, COMPAT_URL);
  await addPasskeyInPage(page, COMPAT_URL, "laptop", { guardApprovals: true });
  const init = await createInit(over(request, COMPAT_URL), { sender: "@acme/cli" });
  await page.goto(init.redirect_url);
  const approveForm = page.locator("form").filter({ has: page.getByRole("button", { name: "Approve" }) });
  await expect(approveForm).toContainText("Your approvals need a passkey");

  // Sent without an assertion (as a page without JavaScript would): refused, and the page explains.
  const refused = await page.request.post(`${COMPAT_URL}/init/${init.id}/approve`, {
    form: { project: "new", name: "My app", code_confirmed: "yes" },
    headers: { origin: COMPAT_URL },
    maxRedirects: 0,
  });
  expect(refused.status()).toBe(303);
  expect(refused.headers().location).toBe(`${COMPAT_URL}/init/${init.id}?error=passkey_required`);
  await page.goto(refused.headers().location);
  await expect(page.getByRole("alert").filter({ hasText: "Your account's approvals need a passkey" })).toBeVisible();

  // The authenticator cannot verify the person: nothing is sent, and the page says so.
  await authenticator.failVerification();
  await page.getByLabel(STARTED_IT).check();
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Not approved: your passkey did not confirm it." })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("A client asks to be linked");

  // Verified: the assertion made for this init approves it.
  await authenticator.passVerification();
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("heading", { name: "Approved" })).toBeVisible();
});
