import { expect, type Page } from "@playwright/test";
import { newEmail, PASSWORD } from "./flow";

// What a person does with passkeys in the browser, with Chromium's virtual authenticator (the
// DevTools protocol's WebAuthn domain) standing for the device: a platform authenticator that
// keeps discoverable credentials and verifies its user (PIN or biometric) unless told not to.

export async function virtualAuthenticator(page: Page, transport: "internal" | "usb" = "internal") {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport, hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return {
    credentials: async () => (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials,
    /** The person fails the authenticator's check (a wrong PIN, another finger). */
    failVerification: () => cdp.send("WebAuthn.setUserVerified", { authenticatorId, isUserVerified: false }),
    passVerification: () => cdp.send("WebAuthn.setUserVerified", { authenticatorId, isUserVerified: true }),
  };
}

/** How long adding a passkey may take: its proof is checked first (a password is a full-cost scrypt hash, as a sign-in's). */
export const PROOF_TIMEOUT_MS = 20_000;

/** Signs up a new person at `site` in the page; returns the email. */
export async function signUpInPage(page: Page, site: string): Promise<string> {
  const email = newEmail();
  await page.goto(`${site}/signup`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.locator("header.site .account-email")).toHaveText(email);
  return email;
}

/**
 * Adds a passkey named `name` on the settings page, and turns "approvals need a passkey" on if
 * asked. The page asks first for the current password (the account's first passkey) or for one
 * of its passkeys, which the virtual authenticator gives.
 */
export async function addPasskeyInPage(page: Page, site: string, name: string, { guardApprovals = false } = {}) {
  await page.goto(`${site}/settings/passkeys`);
  await page.getByLabel("Passkey name").fill(name);
  const password = page.getByLabel("Current password");
  if ((await password.count()) > 0) await password.fill(PASSWORD);
  await page.getByRole("button", { name: "Add passkey" }).click();
  // The script checks the password (a full-cost hash, as a sign-in) before the device makes the passkey.
  await expect(page.getByRole("status").filter({ hasText: `Added the passkey “${name}”.` })).toBeVisible({ timeout: PROOF_TIMEOUT_MS });
  if (!guardApprovals) return;
  await page.getByRole("button", { name: "Turn on" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Approvals now need a passkey." })).toBeVisible();
}
