import { expect, test } from "@playwright/test";
import { COMPAT_URL } from "../../playwright.config";
import { createInit } from "../helpers/journey.mjs";
import { over, PASSWORD, STARTED_IT } from "./flow";
import { addPasskeyInPage, PROOF_TIMEOUT_MS, signUpInPage, virtualAuthenticator } from "./passkey-steps";

// Passkeys in Chromium, its virtual authenticator standing for the device, on
// COMPAT_URL (a host name: WebAuthn refuses IP addresses). Adding one asks first for the current
// password or an existing passkey. The rules (another origin, replays, counters, another
// approval's assertion, the proof adding one needs) are in tests/api/passkeys/.

// Each test checks a password up to four times, each a full-cost scrypt hash, as production does.
test.describe.configure({ timeout: 120_000 });

test("a passkey added in settings, after the current password, signs the person in with no password", async ({ page }) => {
  const authenticator = await virtualAuthenticator(page);
  const email = await signUpInPage(page, COMPAT_URL);
  // A session alone adds no passkey: the page asks for the current password, and a wrong one is
  // refused before the device makes anything.
  await page.goto(`${COMPAT_URL}/settings/passkeys`);
  await page.getByLabel("Passkey name").fill("work laptop");
  await page.getByLabel("Current password").fill("not the password at all");
  await page.getByRole("button", { name: "Add passkey" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "No passkey was added. The current password is not right." })).toBeVisible({ timeout: PROOF_TIMEOUT_MS });
  expect(await authenticator.credentials()).toEqual([]);
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

test("another passkey asks for one the account has; after a password change the page names the new one and offers to remove it", async ({ page }) => {
  const laptop = await virtualAuthenticator(page);
  await signUpInPage(page, COMPAT_URL);
  await addPasskeyInPage(page, COMPAT_URL, "work laptop");
  // No password field now: the laptop's passkey must confirm. When it cannot verify the person, nothing is added.
  await expect(page.getByLabel("Current password")).toHaveCount(0);
  await expect(page.getByText("your browser first asks for one of your passkeys")).toBeVisible();
  await laptop.failVerification();
  await page.getByLabel("Passkey name").fill("security key");
  await page.getByRole("button", { name: "Add passkey" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "No passkey was added." })).toBeVisible();
  await laptop.passVerification();
  // The new passkey on a security key (the laptop's authenticator holds one for this account already).
  const securityKey = await virtualAuthenticator(page, "usb");
  await page.getByRole("button", { name: "Add passkey" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Added the passkey “security key”." })).toBeVisible({ timeout: PROOF_TIMEOUT_MS });
  expect(await securityKey.credentials()).toHaveLength(1);

  await page.goto(`${COMPAT_URL}/settings/password`);
  await page.getByLabel("Current password").fill(PASSWORD);
  await page.getByLabel("New password").fill("another long password");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByRole("status")).toHaveText("Your password is changed. Every other session is signed out.", { timeout: PROOF_TIMEOUT_MS });
  const review = page.getByRole("region", { name: "Check your passkeys" });
  await expect(review).toContainText("Passkeys were added in the last day: “work laptop”, “security key”.");
  await page.screenshot({ path: "test-results/screenshots/password-changed-passkeys.png", fullPage: true });
  const entry = review.getByRole("listitem").filter({ hasText: "security key" });
  await entry.getByText("Remove…").click();
  await entry.getByRole("button", { name: "Yes, remove" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Removed the passkey." })).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: "security key" })).toHaveCount(0);
  await expect(page.getByRole("listitem").filter({ hasText: "work laptop" })).toHaveCount(1);
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
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("An application asks for access");

  // Verified: the assertion made for this init approves it.
  await authenticator.passVerification();
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("heading", { name: "Approved" })).toBeVisible();
});
