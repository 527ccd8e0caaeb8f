import { expect, type APIRequestContext, type Page } from "@playwright/test";

// Steps shared by the end-to-end specs: what a CLI does over HTTP and what a person does in the page.

export const PASSWORD = "correct horse battery";
let people = 0;
export const newEmail = () => `e2e-${Date.now()}-${++people}@example.com`;

export type CreatedInit = { id: string; url: string; redirect_url: string; user_code: string; secret: string };

export async function createInit(request: APIRequestContext): Promise<CreatedInit> {
  const response = await request.post("/api/init", { data: { sender: "@acme/cli", sender_device: "build box <b>bold</b>", sender_os: "linux" } });
  expect(response.status()).toBe(201);
  return response.json();
}

// Each status request names its own poller, so the test never waits out the interval.
let polls = 0;
export async function status(request: APIRequestContext, init: CreatedInit, secret?: string) {
  const headers: Record<string, string> = { "user-agent": `e2e-poller-${++polls}` };
  if (secret) headers.authorization = `Bearer ${secret}`;
  const response = await request.get(init.url, { headers });
  expect(response.status()).toBe(200);
  return response.json();
}

export async function signUpFromInitPage(page: Page, email: string) {
  await page.getByRole("link", { name: "create an account" }).click();
  await expect(page.getByRole("heading", { name: "Create an account" })).toBeVisible();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
}
