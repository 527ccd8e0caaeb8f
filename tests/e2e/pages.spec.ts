import { expect, test } from "@playwright/test";
import { MAIN_URL, SHORT_URL } from "../../playwright.config";
import { approvedIntoNewProject, createInit, sessionCookieName, signUp } from "../helpers/journey.mjs";
import { createInit as createInitOnMain, newEmail, over, PASSWORD } from "./flow";

// What makes the pages feel finished, as a person meets it.

test("dates are shown in the reader's time zone, with a UTC fallback from the server", async ({ browser, request }) => {
  const send = over(request, MAIN_URL);
  const owner = await signUp(send, { site: MAIN_URL, email: newEmail() });
  const init = await createInit(send, { sender: "@acme/cli" });
  expect(await approvedIntoNewProject(send, MAIN_URL, owner.cookie, init.id, "Clock")).toBe(true);

  // Before hydration (the server's HTML): UTC, said so, and the exact moment in dateTime.
  const html = await (await request.get(`${MAIN_URL}/projects/${init.id}`, { headers: { cookie: owner.cookie } })).text();
  expect(html).toMatch(/<time dateTime="\d{4}-\d\d-\d\dT[\d:.]+Z">[^<]+UTC<\/time>/);

  const context = await browser.newContext({ timezoneId: "Asia/Tokyo", locale: "en-US" });
  await context.addCookies([{ name: sessionCookieName(MAIN_URL), value: owner.session, url: MAIN_URL }]);
  const page = await context.newPage();
  await page.goto(`${MAIN_URL}/projects/${init.id}`);
  const created = page.locator("time").first();
  await expect(created).toContainText("GMT+9");
  const moment = new Date((await created.getAttribute("datetime"))!);
  const inTokyo = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", timeZoneName: "short", timeZone: "Asia/Tokyo" });
  await expect(created).toHaveText(inTokyo.format(moment));
  await context.close();
});

test("the app serves a favicon that every page names", async ({ page, request }) => {
  await page.goto("/");
  const href = await page.locator('link[rel="icon"]').first().getAttribute("href");
  expect(href).toMatch(/^\/icon\.svg/);
  const icon = await request.get(href!);
  expect(icon.status()).toBe(200);
  expect(icon.headers()["content-type"]).toContain("image/svg+xml");
});

test("the init page's heading says the state and follows it live: expired", async ({ page, request }) => {
  const init = await createInit(over(request, SHORT_URL), { sender: "@acme/cli" });
  await page.goto(init.redirect_url);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("An application asks for access");
  // SHORT_URL's inits live 10 s; the page changes without a reload.
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Request expired", { timeout: 20_000 });
  await expect(page).toHaveTitle(/Request expired/);
});

test("the init page's heading follows a decision made in another tab: approved, denied", async ({ browser, request }) => {
  const send = over(request, MAIN_URL);
  const person = await signUp(send, { site: MAIN_URL, email: newEmail() });
  const context = await browser.newContext();
  await context.addCookies([{ name: sessionCookieName(MAIN_URL), value: person.session, url: MAIN_URL }]);
  const watching = await context.newPage();

  const approved = await createInitOnMain(request);
  await watching.goto(approved.redirect_url);
  await expect(watching.getByRole("heading", { level: 1 })).toHaveText("An application asks for access");
  expect(await approvedIntoNewProject(send, MAIN_URL, person.cookie, approved.id, "Live")).toBe(true);
  await expect(watching.getByRole("heading", { level: 1 })).toHaveText("Request approved");

  const denied = await createInitOnMain(request);
  await watching.goto(denied.redirect_url);
  const deny = await send("POST", `/init/${denied.id}/deny`, "", { "content-type": "application/x-www-form-urlencoded", origin: MAIN_URL, cookie: person.cookie });
  expect(deny.status).toBe(303);
  await expect(watching.getByRole("heading", { level: 1 })).toHaveText("Request denied");
  await context.close();
});

test("the header's Sign in and Sign up lead back to the page the person was on", async ({ page, request }) => {
  const init = await createInitOnMain(request);
  const back = `/init/${init.id}`;
  await page.goto(init.redirect_url);
  const header = page.getByRole("banner");
  await header.getByRole("link", { name: "Sign in" }).click();
  await expect(page).toHaveURL(`${MAIN_URL}/signin?returnTo=${encodeURIComponent(back)}`);
  // On the sign-in page, the header's Sign up keeps the same way back.
  await header.getByRole("link", { name: "Sign up" }).click();
  await expect(page).toHaveURL(`${MAIN_URL}/signup?returnTo=${encodeURIComponent(back)}`);
  await page.getByLabel("Email").fill(newEmail());
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(init.redirect_url);
  await expect(page.getByRole("region", { name: "Your decision" })).toBeVisible();
});

test("a refused sign-in keeps the email (never in the URL) and says which fields", async ({ page, request }) => {
  const email = newEmail();
  await signUp(over(request, MAIN_URL), { site: MAIN_URL, email });
  await page.goto("/signin?returnTo=%2Fprojects");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("not the right password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(`${MAIN_URL}/signin?returnTo=%2Fprojects&error=invalid_credentials`);
  expect(page.url()).not.toContain("example.com");
  await expect(page.locator("form").getByRole("alert")).toHaveText("The email or password is not right.");
  await expect(page.getByLabel("Email")).toHaveValue(email);
  await expect(page.getByLabel("Password")).toHaveValue("");
  await expect(page.getByLabel("Password")).toBeFocused();
  // The kept email comes back only with its refusal: a fresh visit starts empty.
  await page.goto("/signin");
  await expect(page.getByLabel("Email")).toHaveValue("");
  // And the password was never stored: not in a cookie either.
  expect((await page.context().cookies()).map((cookie) => decodeURIComponent(cookie.value)).join(" ")).not.toContain("not the right password");
});

test("a refused sign-up names the field at fault and keeps the email", async ({ page, request }) => {
  const taken = newEmail();
  await signUp(over(request, MAIN_URL), { site: MAIN_URL, email: taken });
  await page.goto("/signup");
  await page.getByLabel("Email").fill(taken);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(`${MAIN_URL}/signup?error=email_taken`);
  const emailField = page.getByLabel("Email");
  await expect(emailField).toHaveValue(taken);
  await expect(emailField).toHaveAttribute("aria-invalid", "true");
  await expect(emailField).toHaveAccessibleDescription("An account with this email already exists. Sign in instead.");

  // An address the browser accepts but the service does not: the message names the email field.
  await page.getByLabel("Email").fill("someone@localhost");
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(`${MAIN_URL}/signup?error=invalid_request`);
  await expect(page.getByLabel("Email")).toHaveValue("someone@localhost");
  await expect(page.getByLabel("Email")).toHaveAccessibleDescription(/^Email: enter an email address/);
});
