import { expect, test } from "@playwright/test";
import { MAIN_URL } from "../../playwright.config";
import { sessionCookieName, sessionTokenIn, signUp } from "../helpers/journey.mjs";
import { newEmail, over, PASSWORD } from "./flow";

// A person sees the sessions of their account on /settings/sessions and signs
// out the one they do not recognise, from the header's way in.

const OTHER_BROWSER = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";

test("a person finds another browser's session and signs out all others", async ({ browser, request }) => {
  const send = over(request, MAIN_URL);
  const person = await signUp(send, { site: MAIN_URL, email: newEmail() });
  const signIn = await send("POST", "/auth/signin", new URLSearchParams({ email: person.email, password: PASSWORD }).toString(), {
    "content-type": "application/x-www-form-urlencoded",
    origin: MAIN_URL,
    "user-agent": OTHER_BROWSER,
  });
  const other = sessionTokenIn(signIn.headers["set-cookie"] ?? "", MAIN_URL);
  expect(other).not.toBeNull();

  const context = await browser.newContext();
  await context.addCookies([{ name: sessionCookieName(MAIN_URL), value: person.session, url: MAIN_URL }]);
  const page = await context.newPage();
  await page.goto(`${MAIN_URL}/projects`);
  await page.getByRole("link", { name: `${person.email}: account settings` }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Sessions" })).toBeVisible();
  const sessions = page.locator("ul.entries > li");
  await expect(sessions).toHaveCount(2);
  await expect(sessions.first()).toContainText("this browser");
  await expect(sessions.nth(1)).toContainText("Firefox 133 on Linux");
  await page.screenshot({ path: "test-results/screenshots/account-sessions.png", fullPage: true });

  await page.getByRole("button", { name: "Sign out all other sessions" }).click();
  await expect(page.getByRole("status")).toHaveText("Signed out 1 session.");
  await expect(sessions).toHaveCount(1);
  // The other browser is signed out at its next request, and so is a copy of this browser's
  // cookie: this browser holds a new session in place of its own.
  for (const token of [other, person.session]) {
    const signedOut = await request.get(`${MAIN_URL}/settings/sessions`, { headers: { cookie: `${sessionCookieName(MAIN_URL)}=${token}` }, maxRedirects: 0 });
    expect(signedOut.status()).toBe(307);
  }
  await page.reload();
  await expect(sessions.first()).toContainText("this browser");
  await context.close();
});
