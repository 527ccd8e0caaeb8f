import { expect, type Page } from "@playwright/test";
import { newEmail, signUpFromInitPage } from "./flow";

// What a person does in Chromium for the typed client and the CLI (tests/e2e/client.spec.ts,
// cli.spec.ts): both print the code, so the page asks for it typed (user_code_shown).

type ShownInit = { redirect_url: string; user_code: string };

/** A new person opens the link, signs up from the page, types the code and approves into a new project named `name`. */
export async function approveTypingTheCode(page: Page, init: ShownInit, name: string) {
  await page.goto(init.redirect_url);
  await signUpFromInitPage(page, newEmail());
  await page.getByRole("textbox", { name: "New project name" }).fill(name);
  await page.getByLabel("Code shown in your terminal").fill(init.user_code);
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("heading", { name: "Approved" })).toBeVisible();
}

/** A new person opens the link, signs up from the page and denies. */
export async function denyAsNewPerson(page: Page, init: ShownInit) {
  await page.goto(init.redirect_url);
  await signUpFromInitPage(page, newEmail());
  await page.getByRole("button", { name: "Deny" }).click();
  await expect(page.getByRole("heading", { name: "Denied" })).toBeVisible();
}
