import { expect, test, type APIRequestContext, type Browser } from "@playwright/test";
import { SHORT_URL } from "../../playwright.config";
import { newEmail, PASSWORD, signUpFromInitPage, STARTED_IT } from "./flow";
import { expectNoViolations } from "./axe";

async function createInit(request: APIRequestContext, baseURL: string, data: Record<string, string | boolean>, headers: Record<string, string> = {}) {
  const response = await request.post(`${baseURL}/api/init`, { data, headers });
  expect(response.status()).toBe(201);
  return (await response.json()) as { id: string; url: string; redirect_url: string; interval: number; user_code: string };
}

/** A new person, in a browser of their own, signs up and comes back to `url`. */
async function anotherAccountOn(browser: Browser, url: string) {
  const other = await browser.newPage();
  const { origin, pathname } = new URL(url);
  await other.goto(`${origin}/signup?returnTo=${encodeURIComponent(pathname)}`);
  await other.getByLabel("Email").fill(newEmail());
  await other.getByLabel("Password").fill(PASSWORD);
  await other.getByRole("button", { name: "Create account" }).click();
  return other;
}

test("the home page: signed out, what this is and the way to a code; signed in, the projects and Enter a code", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Log in your command-line tools through the browser", level: 1 })).toBeVisible();
  await expectNoViolations(page);
  await page.getByRole("link", { name: "Sign in to enter a code" }).click();
  await expect(page.getByText("Sign in, then type the code your terminal shows.")).toBeVisible();
  await page.goto("/");
  await page.getByRole("link", { name: "Create an account" }).click();
  await page.getByLabel("Email").fill(newEmail());
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { name: "Your projects", level: 1 })).toBeVisible();
  await expect(page.getByText("No projects yet.")).toBeVisible();
  await expectNoViolations(page);
  await page.getByRole("link", { name: "Enter a code" }).click();
  await expect(page.getByRole("heading", { name: "Enter a code", level: 1 })).toBeVisible();
});

test("the init page shows what the client reported and where the request came from", async ({ page, request, baseURL }) => {
  // A forged X-Forwarded-For must not change the address the service saw.
  const init = await createInit(request, baseURL!, { sender: "@acme/cli", sender_device: "build box", sender_os: "linux", sender_ip: "8.8.8.8" }, { "x-forwarded-for": "203.0.113.66" });
  expect(init.redirect_url).toBe(`${baseURL}/init/${init.id}`);
  await page.goto(init.redirect_url);
  await signUpFromInitPage(page, newEmail());
  await expect(page.getByRole("heading", { name: "An application asks for access" })).toBeVisible();
  const facts = page.getByRole("region", { name: "Who is asking" });
  await expect(facts).toContainText("@acme/cli");
  await expect(facts).toContainText("build box");
  await expect(facts).toContainText("linux");
  // The client's own address report is labelled as such; a public address other than the observed one is flagged.
  await expect(facts).toContainText("reports 8.8.8.8 (public) Not where the request came from.");
  await expect(facts).toContainText("127.0.0.1");
  await expect(facts).not.toContainText("203.0.113.66");
  // The browser is where the client is (both 127.0.0.1): a quiet word, and Approve as always.
  await expect(facts).toContainText("127.0.0.1 (from your network)");
  await expect(page.getByRole("region", { name: "Not from your network" })).toHaveCount(0);
  // The access lifetime, ACCESS_TOKEN_LIFETIME_DAYS preselected.
  const lifetime = page.getByLabel("Access for");
  await expect(lifetime.getByRole("option")).toHaveText(["1 hour", "1 day", "30 days", "90 days"]);
  await expect(lifetime).toHaveValue("90d");
  await expect(page.getByRole("status")).toContainText("Waiting for your decision");
  // This client sent no user_code_shown: the page asks about no code it may never have shown, but
  // whether the person started this, naming what and when.
  await expect(page.getByLabel(STARTED_IT)).toBeVisible();
  await expect(page.locator("label.code-check")).toHaveText("I started this myself: @acme/cli on build box, just now.");
  await expect(page.getByText(init.user_code)).toHaveCount(0);
  await page.screenshot({ path: "test-results/screenshots/init-pending.png", fullPage: true });
});

test("markup in what the client reported is shown as text, never run", async ({ page, request, baseURL }) => {
  const init = await createInit(request, baseURL!, { sender: "<img src=x onerror=window.pwned=1>", sender_device: "<script>window.pwned=1</script>" });
  await page.goto(init.redirect_url);
  await expect(page.getByRole("region", { name: "Who is asking" })).toContainText("<img src=x onerror=window.pwned=1>");
  expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
});

// The URL may leak. Alone it shows the application and that a request waits;
// the client's device, operating system and addresses go to a signed-in account while the init
// is pending (it may decide), and once decided to the account that decided only.
test("the client's device and addresses: never to a signed-out visitor, after a decision only to the account that decided", async ({ page, browser, request, baseURL }) => {
  const init = await createInit(request, baseURL!, { sender: "@acme/cli", sender_device: "device-of-ana", sender_os: "os-of-ana", sender_ip: "192.0.2.77" });
  const details = ["device-of-ana", "os-of-ana", "192.0.2.77", "Address"];
  const signedOut = async () => (await request.get(init.redirect_url)).text();
  const pending = await signedOut();
  expect(pending).toContain("An application asks for access");
  expect(pending).toContain("@acme/cli");
  for (const detail of details) expect(pending, detail).not.toContain(detail);

  await page.goto(init.redirect_url);
  await signUpFromInitPage(page, newEmail());
  const asking = page.getByRole("region", { name: "Who is asking" });
  for (const detail of details) await expect(asking).toContainText(detail);
  await page.getByRole("button", { name: "Deny" }).click();
  await expect(page.getByRole("heading", { name: "Request denied" })).toBeVisible();
  await expect(page.getByText("You denied it: the application got no access.")).toBeVisible();
  await expect(page.getByRole("region", { name: "Who asked" })).toContainText("device-of-ana");

  const other = await anotherAccountOn(browser, `${baseURL}/init/${init.id}`);
  await expect(other.getByText("Another account denied it: the application got no access.")).toBeVisible();
  const seenByOther = await other.content();
  await other.close();
  const denied = await signedOut();
  expect(denied).toContain("Request denied");
  for (const shown of [seenByOther, denied]) {
    expect(shown).not.toContain("Who asked");
    for (const detail of details) expect(shown, detail).not.toContain(detail);
  }
});

test("an unknown init id gets a 404 page", async ({ page }) => {
  const response = await page.goto("/init/AAAAAAAAAAAAAAAAAAAAAA");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
});

test("the page follows the status without a reload: it turns expired when the init expires", async ({ page, request }) => {
  const init = await createInit(request, SHORT_URL, { sender: "@acme/cli" });
  await page.goto(init.redirect_url);
  await expect(page.getByRole("status")).toContainText("Waiting for your decision");
  await expect(page.getByRole("status")).toContainText("Expired", { timeout: 20_000 });
  await page.screenshot({ path: "test-results/screenshots/init-expired.png", fullPage: true });
});

// A client that prints the code says so; its page then hides the code and
// needs it typed (the default INIT_CODE_CHECK=confirm would show it to whoever holds the URL).
// A link that carries the code (?user_code=, here through sign-up's return target, as a
// signed-out person follows a phisher's link) never fills it in: typed, never ticked.
test("an init whose client prints the code needs it typed, never filled in from the URL, the outcome says who approved, and the approver may undo it", async ({ page, browser, request, baseURL }) => {
  const init = await createInit(request, baseURL!, { sender: "@acme/cli", user_code_shown: true });
  const crafted = `/init/${init.id}?user_code=${init.user_code}`;
  await page.goto(`${baseURL}/signup?returnTo=${encodeURIComponent(crafted)}`);
  await page.getByLabel("Email").fill(newEmail());
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(`${baseURL}${crafted}`);
  await expect(page.getByLabel("Code shown in your terminal")).toHaveValue("");
  await expect(page.getByText(init.user_code)).toHaveCount(0);
  await page.getByLabel("Code shown in your terminal").fill(init.user_code.toLowerCase());
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("heading", { name: "Approved" })).toBeVisible();
  await expect(page.getByText("You approved it: the application now has access to your project")).toBeVisible();
  // Another account opening the same page learns only that someone else approved it.
  const other = await anotherAccountOn(browser, `${baseURL}/init/${init.id}`);
  await expect(other.getByText("Another account approved it.")).toBeVisible();
  await expect(other.getByText("Undo…")).toHaveCount(0);
  await other.close();
  // The approver may undo it for a few minutes; the client, which has collected nothing, never will.
  await page.getByText("Undo…").click();
  await page.getByRole("button", { name: "Yes, revoke everything" }).click();
  await expect(page.getByRole("heading", { name: "Request denied" })).toBeVisible();
  await expect(page.getByText("You took this approval back")).toBeVisible();
  await expect(page.getByRole("status", { name: "What the report revoked" })).toContainText("Nothing was left to revoke");
});

// New projects per account per hour (NEW_PROJECTS_PER_ACCOUNT_PER_HOUR, 10 by
// default on this server). Past it the page says why and offers the person's own projects, and
// approving into one of them works.
test("past the hour's new projects, the page explains and approves into an existing project", async ({ page, request, baseURL }) => {
  const first = await createInit(request, baseURL!, { sender: "@acme/cli" });
  await page.goto(first.redirect_url);
  await signUpFromInitPage(page, newEmail());
  await page.getByRole("textbox", { name: "New project name" }).fill("Kept");
  await page.getByLabel(STARTED_IT).check();
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("heading", { name: "Request approved" })).toBeVisible();
  // Nine more new projects, as forms posted from the page (the browser's session).
  for (let i = 0; i < 9; i++) {
    const init = await createInit(request, baseURL!, { sender: "@acme/cli" });
    const answer = await page.request.post(`${baseURL}/init/${init.id}/approve`, {
      form: { project: "new", name: `Project ${i}`, code_confirmed: "yes" },
      headers: { origin: baseURL! },
      maxRedirects: 0,
    });
    expect(answer.status()).toBe(303);
    expect(answer.headers().location).toBe(`${baseURL}/init/${init.id}`);
  }
  const eleventh = await createInit(request, baseURL!, { sender: "@acme/cli" });
  await page.goto(eleventh.redirect_url);
  await page.getByLabel(STARTED_IT).check();
  await expect(page.getByRole("radio", { name: "a new project named" })).toBeChecked();
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page).toHaveURL(/[?&]error=too_many_new_projects/);
  await expect(page.getByRole("alert").filter({ hasText: "new projects" })).toHaveText(
    "You (or your network) made as many new projects this hour as allowed. Approve this request into one of your projects below, or make a new one later.",
  );
  await expect(page.getByRole("heading", { name: "An application asks for access" })).toBeVisible();
  // The person's projects come first now; the newest is chosen.
  await expect(page.getByRole("radio", { name: "a new project named" })).not.toBeChecked();
  await expect(page.getByRole("radio", { name: "Project 8" })).toBeChecked();
  await page.getByRole("radio", { name: "Kept" }).check();
  await page.getByLabel(STARTED_IT).check();
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("heading", { name: "Request approved" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Kept" })).toBeVisible();
});

// A client logs in again: the choice starts on the project named after it, so a second login
// goes where the first did instead of into a duplicate.
test("a second login of the same client starts on the project named after it", async ({ page, request, baseURL }) => {
  const first = await createInit(request, baseURL!, { sender: "@acme/cli" });
  await page.goto(first.redirect_url);
  await signUpFromInitPage(page, newEmail());
  await expect(page.getByRole("textbox", { name: "New project name" })).toHaveValue("@acme/cli");
  await page.getByLabel(STARTED_IT).check();
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("heading", { name: "Request approved" })).toBeVisible();

  const again = await createInit(request, baseURL!, { sender: "@acme/cli" });
  await page.goto(again.redirect_url);
  await expect(page.getByRole("radio", { name: "@acme/cli", exact: true })).toBeChecked();
  await expect(page.getByRole("radio", { name: "a new project named" })).not.toBeChecked();
  await page.getByLabel(STARTED_IT).check();
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("heading", { name: "Request approved" })).toBeVisible();
  await expect(page.getByRole("link", { name: "@acme/cli" })).toHaveAttribute("href", `/projects/${first.id}`);
});
