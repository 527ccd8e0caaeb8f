import { randomBytes } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { OIDC_CLOSED_PORT, OIDC_PORT, scratchDatabase } from "../../playwright.config";
import { createInit } from "../helpers/journey.mjs";
import { CLIENT_ID, CLIENT_SECRET, startTestProvider, type TestProvider } from "../helpers/oidc-provider";
import { expectNoViolations } from "./axe";
import { newEmail, over, PASSWORD } from "./flow";
import { startOwnServer, type OwnServer } from "./own-server";

// Signing in through the platform's OpenID Connect provider, in Chromium: node-oidc-provider
// started here (its development login page, any name and password; the email in its ID tokens)
// and a server of this spec's own that knows it (OIDC_*). The service's checks of every answer
// (forged state, replay, nonce, a provider down), on both databases: tests/api/identity/.

const SERVER = `http://127.0.0.1:${OIDC_PORT}`;
/** A server whose accounts all come from the provider: SIGN_UP=off, LOCAL_PASSWORDS=off. */
const CLOSED = `http://127.0.0.1:${OIDC_CLOSED_PORT}`;

let provider: TestProvider;
let server: OwnServer;
let closed: OwnServer;

// One server and one provider for the file: its tests run in order in one worker.
test.describe.configure({ mode: "default" });

test.beforeAll(async () => {
  // Starting a server takes a while on a busy machine.
  test.setTimeout(180_000);
  provider = await startTestProvider([`${SERVER}/auth/oidc/callback`, `${CLOSED}/auth/oidc/callback`], { claimsInIdToken: true });
  const knowingTheProvider = { OIDC_ISSUER: provider.issuer, OIDC_CLIENT_ID: CLIENT_ID, OIDC_CLIENT_SECRET: CLIENT_SECRET, OIDC_DISPLAY_NAME: "Acme SSO" };
  [server, closed] = await Promise.all([
    startOwnServer(OIDC_PORT, { APP_URL: SERVER, DATABASE_URL: scratchDatabase("oidc"), MASTER_KEY: randomBytes(32).toString("base64"), ...knowingTheProvider }),
    startOwnServer(OIDC_CLOSED_PORT, {
      APP_URL: CLOSED,
      DATABASE_URL: scratchDatabase("oidc-closed"),
      MASTER_KEY: randomBytes(32).toString("base64"),
      WEB_CONCURRENCY: "1",
      SIGN_UP: "off",
      LOCAL_PASSWORDS: "off",
      ...knowingTheProvider,
    }),
  ]);
});

test.afterAll(async () => {
  server.stop();
  closed.stop();
  await provider.stop();
});

/** Signs in at the provider's development login page as `login`. */
async function signInAtProvider(page: Page, login: string) {
  await page.getByPlaceholder("Enter any login").fill(login);
  await page.getByPlaceholder("and password").fill("any password");
  await page.getByRole("button", { name: "Sign-in" }).click();
}

test("a first sign-in from an init page makes the account and comes back to the page; a second finds it", async ({ page, request }) => {
  const login = `ana-${Date.now()}`;
  const email = `${login}@example.com`;
  provider.accounts.set(login, { email, email_verified: true });
  const init = await createInit(over(request, SERVER), { sender: "@acme/cli" });
  await page.goto(init.redirect_url);
  await page.getByRole("link", { name: "Sign in with Acme SSO" }).click();
  await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/interaction/`));
  await signInAtProvider(page, login);
  // Back on the init page, signed in: it asks for the decision.
  await expect(page).toHaveURL(init.redirect_url);
  await expect(page.getByRole("button", { name: "Approve" })).toBeVisible();

  await page.getByRole("button", { name: "Sign out" }).click();
  await page.goto(`${SERVER}/signin?returnTo=%2Fsettings%2Fidentity`);
  await page.getByRole("link", { name: "Sign in with Acme SSO" }).click();
  // Still signed in at the provider: straight back, to the same account.
  await expect(page.getByRole("heading", { name: "Identity provider" })).toBeVisible();
  await expect(page.getByText(`${email} (verified by the provider)`)).toBeVisible();
  await expect(page.getByText("This is your only way to sign in. Add a passkey before you unlink it.")).toBeVisible();
  await expectNoViolations(page);
});

test("a person with a password links the provider from the settings and unlinks it", async ({ page }) => {
  const email = newEmail();
  await page.goto(`${SERVER}/signup`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await page.goto(`${SERVER}/settings/identity`);
  await page.getByRole("link", { name: "Link Acme SSO" }).click();
  const login = `bo-${Date.now()}`;
  provider.accounts.set(login, { email: `${login}@example.com`, email_verified: false });
  await signInAtProvider(page, login);
  await expect(page.getByRole("status")).toHaveText("Linked: Acme SSO now signs you in to this account.");
  await expect(page.getByText(`${login}@example.com (not verified by the provider)`)).toBeVisible();
  await page.getByText("Unlink…").click();
  await page.getByRole("button", { name: "Yes, unlink" }).click();
  await expect(page.getByRole("status")).toHaveText("Unlinked.");
  await expect(page.getByText("No identity provider is linked to your account.")).toBeVisible();
});

test("cancelling at the provider lands on the sign-in page with a clear message", async ({ page }) => {
  await page.goto(`${SERVER}/signin?returnTo=%2Fdevice`);
  await page.getByRole("link", { name: "Sign in with Acme SSO" }).click();
  await page.getByRole("link", { name: "[ Cancel ]" }).click();
  await expect(page).toHaveURL(`${SERVER}/signin?returnTo=%2Fdevice&error=oidc_denied`);
  await expect(page.getByRole("alert").filter({ hasText: "cancelled" })).toHaveText(
    "The sign-in was cancelled or refused at your identity provider. Nothing was changed. Try again, or sign in another way.",
  );
  await expectNoViolations(page);
});

test("with SIGN_UP=off and LOCAL_PASSWORDS=off the pages offer the provider and passkeys only, and its first sign-in makes the account", async ({ page }) => {
  const login = `bo-${Date.now()}`;
  provider.accounts.set(login, { email: `${login}@example.com`, email_verified: true });
  await page.goto(`${CLOSED}/signup`);
  await expect(page.getByText("Sign-up with a password is closed here: your account is made the first time you sign in with Acme SSO.")).toBeVisible();
  await expect(page.getByLabel("Password")).toHaveCount(0);
  await expect(page.getByRole("navigation", { name: "Account" }).getByRole("link", { name: "Sign up" })).toHaveCount(0);
  await expectNoViolations(page);

  await page.getByRole("link", { name: "Sign in instead" }).click();
  await expect(page.getByText("Passwords are not used here.")).toBeVisible();
  await expect(page.getByLabel("Password")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Use a passkey" })).toBeVisible();
  await expectNoViolations(page);
  await page.getByRole("link", { name: "Sign in with Acme SSO" }).click();
  await signInAtProvider(page, login);
  await expect(page.getByRole("link", { name: `${login}@example.com: account settings` })).toBeVisible();
});
