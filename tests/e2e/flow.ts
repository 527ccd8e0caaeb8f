import { request as httpRequest } from "node:http";
import { expect, type APIRequestContext, type APIResponse, type Page } from "@playwright/test";
import { createInit as createInitStep, newEmail as newEmailFor, PASSWORD, type CreatedInit, type Send } from "../helpers/journey.mjs";

// Steps shared by the end-to-end specs: what a CLI does over HTTP (the journey of
// tests/helpers/journey.mjs, through Playwright's request context) and what a person does in the page.

export { PASSWORD, type CreatedInit };
export const newEmail = () => newEmailFor("e2e");

/** The approve form's box for a client that shows no code: the person started it (the application, device and time named). */
export const STARTED_IT = /^I started this myself: /;

/**
 * The journey's transport to the server at `base` (by default the suite's baseURL); a redirect
 * is the answer, never followed.
 */
export function over(request: APIRequestContext, base = ""): Send {
  return async (method, path, body, headers) => {
    const response = await request.fetch(`${base}${path}`, { method, data: body, headers, maxRedirects: 0 });
    return { status: response.status(), headers: response.headers(), text: await response.text() };
  };
}

/**
 * The journey's transport to the server at `base` from `localAddress`: any address of
 * 127.0.0.0/8 answers on this machine, so a client can stand elsewhere than the browser (127.0.0.1).
 */
export function sendFrom(base: string, localAddress: string): Send {
  const { hostname, port } = new URL(base);
  return (method, path, body, headers = {}) =>
    new Promise((resolve, reject) => {
      const request = httpRequest({ host: hostname, port, localAddress, method, path, headers }, (response) => {
        let text = "";
        response.on("data", (chunk: Buffer) => (text += chunk.toString()));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers as Record<string, string>, text }));
      });
      request.on("error", reject);
      request.end(body);
    });
}

export function createInit(request: APIRequestContext): Promise<CreatedInit> {
  return createInitStep(over(request), { sender: "@acme/cli", sender_device: "build box <b>bold</b>", sender_os: "linux" });
}

/** A poll that honours slow_down, as a client does: on 429 it waits Retry-After once and asks again. */
export async function pollAtItsPace(poll: () => Promise<APIResponse>): Promise<APIResponse> {
  const first = await poll();
  if (first.status() !== 429) return first;
  await new Promise((resolve) => setTimeout(resolve, Number(first.headers()["retry-after"]) * 1000));
  return poll();
}

export async function status(request: APIRequestContext, init: CreatedInit, secret?: string) {
  const headers: Record<string, string> = secret ? { authorization: `Bearer ${secret}` } : {};
  const response = await pollAtItsPace(() => request.get(init.url, { headers }));
  expect(response.status()).toBe(200);
  return response.json();
}

export async function signUpFromInitPage(page: Page, email: string) {
  await page.getByRole("link", { name: "create an account" }).click();
  await expect(page.getByRole("heading", { name: "Create an account" })).toBeVisible();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  // Back on the page it came from, loaded: a reload or a route set up now is not raced by the
  // sign-up's navigation. A refused sign-up comes back to /signup with its error, and fails here.
  await page.waitForURL((url) => url.pathname !== "/signup" || url.searchParams.has("error"));
  await expect(page, "the sign-up was refused").not.toHaveURL(/\/signup/);
}

/** A new person opens the init's page, signs up from it and approves, into a new project named `name` if given. */
export async function approveAsNewPerson(page: Page, init: CreatedInit, name?: string) {
  await page.goto(init.redirect_url);
  await signUpFromInitPage(page, newEmail());
  if (name !== undefined) await page.getByRole("textbox", { name: "New project name" }).fill(name);
  await page.getByLabel(STARTED_IT).check();
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("heading", { name: "Approved" })).toBeVisible();
}
