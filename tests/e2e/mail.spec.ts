import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { MAIL_PORT, scratchDatabase } from "../../playwright.config";
import { linkToken, startTestSmtpServer, type TestMailbox } from "../helpers/smtp";
import { expectNoViolations } from "./axe";
import { newEmail, PASSWORD } from "./flow";
import { startOwnServer, type OwnServer } from "./own-server";

// Mail in Chromium: a server of the spec's own sends through a real SMTP server the spec starts
// (smtp-server); the person opens the delivered links as they would from their mail client. The
// server carries a platform's brand (APP_NAME, APP_LOGO), which its pages and mails show.

const SERVER = `http://127.0.0.1:${MAIL_PORT}`;
const NEW_PASSWORD = "a brand new passphrase";
const LOGO = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 20"><circle cx="10" cy="10" r="9" fill="#c0392b"/></svg>';

let mailbox: TestMailbox;
let server: OwnServer;

test.describe.configure({ mode: "default" });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  mailbox = await startTestSmtpServer();
  mkdirSync(".cache/e2e", { recursive: true });
  writeFileSync(".cache/e2e/acme-logo.svg", LOGO);
  server = await startOwnServer(MAIL_PORT, {
    APP_NAME: "Acme Login",
    APP_LOGO: ".cache/e2e/acme-logo.svg",
    APP_URL: SERVER,
    DATABASE_URL: scratchDatabase("mail"),
    MASTER_KEY: randomBytes(32).toString("base64"),
    WEB_CONCURRENCY: "1",
    SMTP_URL: mailbox.url,
    EMAIL_FROM: "initlink <login@initlink.test>",
  });
});

test.afterAll(async () => {
  server.stop();
  await mailbox.close();
});

/** The link of the next mail to `email` with `subject`, as its text gives it. */
async function mailedLink(email: string, subject: string): Promise<string> {
  const mail = await mailbox.next(email, subject, 30_000);
  const token = linkToken(mail);
  const link = new RegExp(`${SERVER}/[a-z-]+#token=${token}`).exec(mail.text ?? "");
  expect(link).not.toBeNull();
  return link![0];
}

async function signUp(page: Page, email: string) {
  await page.goto(`${SERVER}/signup`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
}

test("a new account confirms its email through the mailed link", async ({ page }) => {
  const email = newEmail();
  await signUp(page, email);
  await page.goto(`${SERVER}/settings/email`);
  await expect(page.getByText("Not confirmed yet.")).toBeVisible();
  await expectNoViolations(page);
  // The platform's brand: its name in the header and the title, its logo beside it.
  await expect(page.getByRole("link", { name: "Acme Login", exact: true })).toBeVisible();
  await expect(page).toHaveTitle("Email · Acme Login");
  // Every settings page is under the header's Settings.
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" })).toHaveAttribute("aria-current", "true");
  await expect(page.locator("header img")).toHaveAttribute("src", `data:image/svg+xml;base64,${Buffer.from(LOGO).toString("base64")}`);
  const link = await mailedLink(email, "Confirm your email address for Acme Login");
  await page.goto(link);
  // The token leaves the address bar before anything is sent.
  await expect(page).toHaveURL(`${SERVER}/verify-email`);
  await expectNoViolations(page);
  await page.getByRole("button", { name: "Confirm my email address" }).click();
  await expect(page.getByRole("status")).toHaveText("Your email address is confirmed. Thank you.");
  await page.goto(`${SERVER}/settings/email`);
  await expect(page.getByText(/^Confirmed /)).toBeVisible();
});

test("a forgotten password is set again through the mailed link, which then no longer works", async ({ page, browser }) => {
  const email = newEmail();
  await signUp(page, email);
  const elsewhere = await browser.newPage();
  await elsewhere.goto(`${SERVER}/signin`);
  await elsewhere.getByRole("link", { name: "Forgot your password?" }).click();
  await expect(elsewhere.getByRole("heading", { name: "Forgot your password?" })).toBeVisible();
  await expectNoViolations(elsewhere);
  await elsewhere.getByLabel("Email").fill(email);
  await elsewhere.getByRole("button", { name: "Mail me a link" }).click();
  await expect(elsewhere.getByRole("status")).toContainText("If an account here has that email and a password, we sent it a link");

  const link = await mailedLink(email, "Set a new password");
  await elsewhere.goto(link);
  await expect(elsewhere).toHaveURL(`${SERVER}/reset-password`);
  await expectNoViolations(elsewhere);
  await elsewhere.getByLabel("New password").fill(NEW_PASSWORD);
  await elsewhere.getByRole("button", { name: "Set the password" }).click();
  // The account's address was not confirmed: the reset confirms it and says what else ended.
  await expect(elsewhere.getByRole("status")).toContainText("Your new password is set and your email address confirmed.");
  await elsewhere.getByLabel("Email").fill(email);
  await elsewhere.getByLabel("Password").fill(NEW_PASSWORD);
  await elsewhere.getByRole("button", { name: "Sign in" }).click();
  await expect(elsewhere.getByRole("button", { name: "Sign out" })).toBeVisible();

  // The first browser's session ended with the reset.
  await page.reload();
  await expect(page.getByRole("link", { name: "Sign in" }).first()).toBeVisible();
  const notice = await mailbox.next(email, "Your Acme Login password was changed", 30_000);
  expect(notice.text).toContain("reset through a link sent to this address");

  await elsewhere.goto(link);
  await elsewhere.getByLabel("New password").fill("yet another passphrase");
  await elsewhere.getByRole("button", { name: "Set the password" }).click();
  await expect(elsewhere.getByRole("alert").filter({ hasText: "already used" })).toHaveText("This link was already used: each link works once. Ask for a new one if you need it.");
  await expect(elsewhere.getByLabel("New password")).toHaveCount(0);
  await expect(elsewhere.getByRole("link", { name: "Ask for a new link" })).toBeVisible();
  await expectNoViolations(elsewhere);
});
