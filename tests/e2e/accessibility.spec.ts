import { expect, test, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { COMPAT_URL, MAIN_URL, SHORT_URL } from "../../playwright.config";
import { approvedIntoNewProject, createInit, createLink, pickUpToken, randomIv, sessionCookieName, signUp, type CreatedInit, type Person } from "../helpers/journey.mjs";
import { axeViolations, expectNoViolations } from "./axe";
import { newEmail, over, PASSWORD, sendFrom } from "./flow";
import { addPasskeyInPage, signUpInPage, virtualAuthenticator } from "./passkey-steps";
import { closedUrl, startReceiver, type Receiver } from "./webhook-receiver";

// Every page, in each state that matters, passes axe with no violation in the
// light and dark colour schemes, on a desktop and at 390 px; and at 390 px the header's links
// share the brand's row, nothing scrolls sideways (/docs included), and the init page's Approve
// is on the first screen. The signed-in email shows whole at every width, and the
// header link of the page shown says so (aria-current).

type Mode = { name: string; colorScheme: "light" | "dark"; viewport: { width: number; height: number } };

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const MODES: Mode[] = [
  { name: "light", colorScheme: "light", viewport: DESKTOP },
  { name: "dark", colorScheme: "dark", viewport: DESKTOP },
  { name: "phone-light", colorScheme: "light", viewport: PHONE },
  { name: "phone-dark", colorScheme: "dark", viewport: PHONE },
];

const isPhone = (mode: Mode) => mode.viewport.width === PHONE.width;

async function contextFor(browser: Browser, person?: { site: string; session: string }): Promise<BrowserContext> {
  const context = await browser.newContext({ colorScheme: MODES[0].colorScheme, viewport: MODES[0].viewport });
  if (person) await context.addCookies([{ name: sessionCookieName(person.site), value: person.session, url: person.site }]);
  return context;
}

/**
 * Puts the open page in each mode in turn and runs `check`. The page is loaded once: the colour
 * scheme and the width are CSS media queries alone (app/globals.css), so switching them is what a
 * fresh load in that mode would show, at a quarter of the loads.
 */
async function inEveryMode(page: Page, check: (mode: Mode) => Promise<void>) {
  for (const mode of MODES) {
    await page.emulateMedia({ colorScheme: mode.colorScheme });
    await page.setViewportSize(mode.viewport);
    await check(mode);
  }
}

/** Nothing wider than the viewport: the page never scrolls sideways. */
async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    return root.scrollWidth - root.clientWidth;
  });
  expect(overflow).toBeLessThanOrEqual(0);
}

type Box = { x: number; y: number; width: number; height: number };

/**
 * The boxes of the elements `selector` matches (null for one not rendered), read in one round
 * trip, as Playwright's boundingBox() reads each (the viewport's coordinates). `visibleOnly`:
 * only those rendered with a box, as the `:visible` selector keeps.
 */
function boxesOf(page: Page, selector: string, visibleOnly: boolean): Promise<(Box | null)[]> {
  return page.evaluate(
    ({ selector, visibleOnly }) => {
      const boxOf = (element: Element) => {
        const rect = element.getBoundingClientRect();
        const shown = element.getClientRects().length > 0 && getComputedStyle(element).visibility !== "hidden";
        return shown && rect.width > 0 && rect.height > 0 ? { x: rect.x, y: rect.y, width: rect.width, height: rect.height } : null;
      };
      const boxes = [...document.querySelectorAll(selector)].map(boxOf);
      return visibleOnly ? boxes.filter((box) => box !== null) : boxes;
    },
    { selector, visibleOnly },
  );
}

/** At 390 px: no sideways scrolling, and the header's brand and links on one row. */
async function expectPhoneLayout(page: Page) {
  await expectNoSidewaysScroll(page);
  const [brand] = await boxesOf(page, "header.site .brand", false);
  expect(brand).not.toBeNull();
  for (const box of await boxesOf(page, "header.site nav > *", true)) {
    // Same row: each item's middle lies within the brand's height.
    const middle = box!.y + box!.height / 2;
    expect(middle).toBeGreaterThan(brand!.y);
    expect(middle).toBeLessThan(brand!.y + brand!.height);
  }
}

/**
 * In every mode: the header's links and account end inside the header's column (a long email
 * shrinks, it never pushes Sign out out); a signed-in person's email shows whole.
 */
async function expectHeaderWithinColumn(page: Page) {
  const [header] = await boxesOf(page, "header.site", false);
  expect(header).not.toBeNull();
  const items = [...(await boxesOf(page, "header.site nav > *", true)), ...(await boxesOf(page, "header.site .account > *", false))];
  for (const box of items) {
    expect(box).not.toBeNull();
    expect(box!.x + box!.width).toBeLessThanOrEqual(header!.x + header!.width);
  }
  const email = page.locator("header.site .account-email");
  if ((await email.count()) === 0) return;
  await expect(email).toBeVisible();
  expect(await email.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);
}

/** Opens `url` (after `before`, e.g. routes), lets `prepare` act in it, then audits it in every mode; `after` checks more in each. */
async function auditEverywhere(
  browser: Browser,
  url: string,
  options: {
    person?: { site: string; session: string };
    before?: (page: Page) => Promise<void>;
    prepare?: (page: Page) => Promise<void>;
    after?: (page: Page, mode: Mode) => Promise<void>;
    shot: string;
  },
) {
  const context = await contextFor(browser, options.person);
  const page = await context.newPage();
  await options.before?.(page);
  await page.goto(url);
  await options.prepare?.(page);
  await inEveryMode(page, async (mode) => {
    await page.screenshot({ path: `test-results/screenshots/pages/${options.shot}-${mode.name}.png`, fullPage: true });
    await expectNoViolations(page);
    await expectHeaderWithinColumn(page);
    if (isPhone(mode)) await expectPhoneLayout(page);
    await options.after?.(page, mode);
  });
  await context.close();
}

type Signed = Person & { site: string };

async function person(send: ReturnType<typeof over>, site: string): Promise<Signed> {
  return { ...(await signUp(send, { site, email: newEmail() })), site };
}

// An honest client reports its first interface's (private) address; a flagged public one is audited from another network below.
async function initOn(send: ReturnType<typeof over>): Promise<CreatedInit> {
  return createInit(send, { sender: "@acme/deploy-cli", sender_device: "Ana’s laptop", sender_os: "macOS 15", sender_ip: "192.168.1.10" });
}

// Each test runs axe in four modes, some on several pages: more than the default minute on a busy machine.
test.describe.configure({ timeout: 180_000 });

// The audit itself: a page with a violation is seen to have it, after a first run on the same load.
test("the audit sees a violation", async ({ page }) => {
  await page.setContent(`<!doctype html><html lang="en"><head><title>Audit</title></head><body><main><h1>Audit</h1></main></body></html>`);
  expect(await axeViolations(page)).toEqual([]);
  await page.evaluate(() => document.querySelector("main")!.append(Object.assign(document.createElement("img"), { src: "data:," })));
  expect(await axeViolations(page)).toEqual([expect.stringMatching(/^image-alt: /)]);
});

test("the home page, signed out", async ({ browser }) => {
  await auditEverywhere(browser, `${MAIN_URL}/`, { shot: "home" });
});

test("the home page, signed in", async ({ browser, request }) => {
  await auditEverywhere(browser, `${MAIN_URL}/`, { person: await person(over(request, MAIN_URL), MAIN_URL), shot: "home-signed-in" });
});

test("the verification page (/device), and its answer to a code no request waits for", async ({ browser, request }) => {
  const signedIn = await person(over(request, MAIN_URL), MAIN_URL);
  await auditEverywhere(browser, `${MAIN_URL}/device`, { person: signedIn, shot: "device" });
  await auditEverywhere(browser, `${MAIN_URL}/device?error=unknown_user_code`, { person: signedIn, shot: "device-unknown-code" });
});

// The API reference renders in the browser (Swagger UI): each mode waits for its operations; the
// error codes follow them, in the page's own table.
test("the API reference (/docs): the operations first, then the error codes; one column with the header, no sideways scrolling at 390 px", async ({ browser }) => {
  const context = await contextFor(browser);
  const page = await context.newPage();
  await page.goto(`${MAIN_URL}/docs`);
  await expect(page.locator(".api-reference .opblock").first()).toBeVisible({ timeout: 20_000 });
  const table = page.locator(".error-codes table");
  await expect(table).toContainText("code_mismatch");
  const [operations, codes] = [(await page.locator(".api-reference").boundingBox())!, (await table.boundingBox())!];
  expect(codes.y).toBeGreaterThan(operations.y + operations.height);
  await inEveryMode(page, async (mode) => {
    await page.screenshot({ path: `test-results/screenshots/pages/docs-${mode.name}.png`, fullPage: true });
    await table.screenshot({ path: `test-results/screenshots/pages/docs-table-${mode.name}.png` });
    // The table's header cells stand apart ("status meaning", never "statusmeaning").
    expect(await table.locator("th").evaluateAll((cells) => cells.map((cell) => getComputedStyle(cell).paddingRight))).not.toContain("0px");
    const header = (await page.locator("header.site").boundingBox())!;
    const reference = (await page.locator(".api-reference").boundingBox())!;
    expect(Math.abs(header.width - (reference.width + 32))).toBeLessThanOrEqual(1);
    await expectNoSidewaysScroll(page);
  });
  await context.close();
});

test("the not-found page, and the page of a sign-in request that cannot be answered", async ({ browser }) => {
  await auditEverywhere(browser, `${MAIN_URL}/no/such/page`, { shot: "not-found" });
  await auditEverywhere(browser, `${MAIN_URL}/oauth/authorize?client_id=%40acme%2Fcli&redirect_uri=https%3A%2F%2Fevil.example%2Fcb`, { shot: "authorization-refused" });
});

// server.mjs's own plain page for a path with a broken % escape (no site header to check).
test("the bad-request page", async ({ browser }) => {
  const context = await contextFor(browser);
  const page = await context.newPage();
  const response = await page.goto(`${MAIN_URL}/init/%E0%A4%A`);
  expect(response?.status()).toBe(400);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Bad request");
  await inEveryMode(page, async (mode) => {
    await page.screenshot({ path: `test-results/screenshots/pages/bad-request-${mode.name}.png`, fullPage: true });
    await expectNoViolations(page);
    await expectNoSidewaysScroll(page);
  });
  await context.close();
});

// The passkeys page with a passkey (added with Chromium's virtual
// authenticator, on COMPAT_URL's host name), approvals needing one and a refusal shown, the
// passkeys listed to check after signing out, and the init page's approve form asking for a passkey.
test("the passkeys page, and the init page when approvals need a passkey", async ({ browser, request }) => {
  const setup = await browser.newContext();
  const page = await setup.newPage();
  await virtualAuthenticator(page);
  await signUpInPage(page, COMPAT_URL);
  await addPasskeyInPage(page, COMPAT_URL, "work laptop", { guardApprovals: true });
  const session = (await setup.cookies()).find((cookie) => cookie.name === sessionCookieName(COMPAT_URL))?.value ?? "";
  await setup.close();
  const guarded = { site: COMPAT_URL, session };
  await auditEverywhere(browser, `${COMPAT_URL}/settings/passkeys?error=last_passkey`, { person: guarded, shot: "passkeys" });
  // "Check your passkeys", naming the one added in the last day, as after signing sessions out.
  await auditEverywhere(browser, `${COMPAT_URL}/settings/sessions?signedOut=1`, { person: guarded, shot: "passkeys-review" });
  const init = await initOn(over(request, COMPAT_URL));
  await auditEverywhere(browser, init.redirect_url, { person: guarded, shot: "init-passkey" });
});

test("sign-in, fresh", async ({ browser }) => {
  await auditEverywhere(browser, `${MAIN_URL}/signin`, { shot: "signin" });
});

test("sign-in with an error", async ({ browser, request }) => {
  const existing = await person(over(request, MAIN_URL), MAIN_URL);
  await auditEverywhere(browser, `${MAIN_URL}/signin`, {
    shot: "signin-error",
    prepare: async (page) => {
      await page.getByLabel("Email").fill(existing.email);
      await page.getByLabel("Password").fill("not the password");
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page.getByRole("alert").filter({ hasText: "email or password" })).toBeVisible();
    },
  });
});

test("sign-up with an error", async ({ browser, request }) => {
  const existing = await person(over(request, MAIN_URL), MAIN_URL);
  await auditEverywhere(browser, `${MAIN_URL}/signup`, {
    shot: "signup-error",
    prepare: async (page) => {
      await page.getByLabel("Email").fill(existing.email);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Create account" }).click();
      await expect(page.getByRole("alert").filter({ hasText: "already exists" })).toBeVisible();
    },
  });
});

test("the init page, pending, signed out", async ({ browser, request }) => {
  const pending = await initOn(over(request, MAIN_URL));
  await auditEverywhere(browser, pending.redirect_url, { shot: "init-pending-signed-out" });
});

// A signed-out page whose event stream failed stops following the init and offers a reload.
test("the init page, pending, signed out, no longer followed", async ({ browser, request }) => {
  const pending = await initOn(over(request, MAIN_URL));
  await auditEverywhere(browser, pending.redirect_url, {
    shot: "init-pending-signed-out-stopped",
    before: async (page) => {
      await page.route("**/events", (route) => route.abort());
    },
    prepare: async (page) => {
      await expect(page.getByRole("button", { name: "Reload" })).toBeVisible();
    },
  });
});

// The code typed at /device: the request's page asks for no code again (RFC 8628 §3.3).
test("the init page, pending, its code typed at /device", async ({ browser, request }) => {
  const send = over(request, MAIN_URL);
  const approver = await person(send, MAIN_URL);
  const shown = await createInit(send, { sender: "@acme/deploy-cli", sender_device: "Ana’s laptop", sender_os: "macOS 15", sender_ip: "192.168.1.10", user_code_shown: true });
  await auditEverywhere(browser, `${MAIN_URL}/device`, {
    person: approver,
    shot: "init-pending-code-entered",
    prepare: async (page) => {
      await page.getByLabel("Code shown in your terminal").fill(shown.user_code);
      await page.getByRole("button", { name: "Continue" }).click();
      await expect(page.getByText("You typed this request's code")).toBeVisible();
    },
  });
});

test("the init page, pending, signed in: Approve on a phone's first screen", async ({ browser, request }) => {
  const send = over(request, MAIN_URL);
  const approver = await person(send, MAIN_URL);
  const pending = await initOn(send);
  await auditEverywhere(browser, pending.redirect_url, {
    person: approver,
    shot: "init-pending",
    after: async (page, mode) => {
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("An application asks for access");
      if (!isPhone(mode)) return;
      // Approve is on the first screen: the person never scrolls past the whole request to find it.
      const approve = await page.getByRole("button", { name: "Approve" }).boundingBox();
      expect(approve!.y + approve!.height).toBeLessThanOrEqual(PHONE.height);
    },
  });
});

// Proximity: a request from another network (the client at 127.0.9.4, the browser at 127.0.0.1):
// the warning with a flagged public report, then the typed code and the access lifetime. (For a
// client that shows no code the same card has only Deny after it: proxies.spec.ts.)
test("the init page, pending, from another network", async ({ browser, request }) => {
  const approver = await person(over(request, MAIN_URL), MAIN_URL);
  const report = { sender: "@acme/deploy-cli", sender_device: "Ana’s laptop", sender_os: "macOS 15", sender_ip: "8.8.8.8", user_code_shown: true };
  const shown = await createInit(sendFrom(MAIN_URL, "127.0.9.4"), report);
  await auditEverywhere(browser, shown.redirect_url, {
    person: approver,
    shot: "init-pending-elsewhere",
    after: async (page) => {
      await expect(page.getByRole("region", { name: "Not from your network" })).toBeVisible();
    },
  });
});

test("the init page, approved", async ({ browser, request }) => {
  const send = over(request, MAIN_URL);
  const approver = await person(send, MAIN_URL);
  const approved = await initOn(send);
  expect(await approvedIntoNewProject(send, MAIN_URL, approver.cookie, approved.id, "Deploys")).toBe(true);
  await auditEverywhere(browser, approved.redirect_url, { person: approver, shot: "init-approved" });
});

test("the init page, denied", async ({ browser, request }) => {
  const send = over(request, MAIN_URL);
  const approver = await person(send, MAIN_URL);
  const denied = await initOn(send);
  const deny = await send("POST", `/init/${denied.id}/deny`, "", { "content-type": "application/x-www-form-urlencoded", origin: MAIN_URL, cookie: approver.cookie });
  expect(deny.status).toBe(303);
  await auditEverywhere(browser, denied.redirect_url, { person: approver, shot: "init-denied" });
});

test("the init page, expired", async ({ browser, request }) => {
  const send = over(request, SHORT_URL);
  const viewer = await person(send, SHORT_URL);
  const init = await initOn(send);
  // SHORT_URL's inits live 10 s.
  await expect.poll(async () => JSON.parse((await send("GET", `/api/init/${init.id}`)).text).status, { timeout: 20_000, intervals: [1000] }).toBe("expired");
  await auditEverywhere(browser, init.redirect_url, { person: viewer, shot: "init-expired" });
});

/** A person with a project whose client linked twice (once revoked), and where the revoke led. */
async function projectWithLinks(send: ReturnType<typeof over>) {
  const owner = await person(send, MAIN_URL);
  const init = await initOn(send);
  expect(await approvedIntoNewProject(send, MAIN_URL, owner.cookie, init.id, "Payments API with a rather long project name")).toBe(true);
  const { project_id: projectId, access_token: accessToken } = await pickUpToken(send, init);
  await createLink(send, projectId, accessToken, { headers: { "user-agent": "acme-deploy/3.1.0 (darwin; arm64) node/22.11.0" } });
  const second = await createLink(send, projectId, accessToken, { headers: { "user-agent": "curl/8.5.0" } });
  const revoke = await send("POST", `/projects/${projectId}/links/${second.link_id}/revoke`, "", { "content-type": "application/x-www-form-urlencoded", origin: MAIN_URL, cookie: owner.cookie });
  expect(revoke.status).toBe(303);
  return { owner, revokedAt: revoke.headers.location };
}

test("the projects list", async ({ browser, request }) => {
  const { owner } = await projectWithLinks(over(request, MAIN_URL));
  await auditEverywhere(browser, `${MAIN_URL}/projects`, {
    person: owner,
    shot: "projects",
    after: async (page) => {
      const main = page.getByRole("navigation", { name: "Main" });
      await expect(main.getByRole("link", { name: "Projects" })).toHaveAttribute("aria-current", "page");
      await expect(main.getByRole("link", { name: "Activity" })).not.toHaveAttribute("aria-current");
    },
  });
});

/** A team of `owner`'s with a second member and an open invitation, made through the forms; returns the team's page and the member. */
async function teamOf(send: ReturnType<typeof over>, owner: Signed) {
  const form = (path: string, fields: Record<string, string>, cookie = owner.cookie) =>
    send("POST", path, new URLSearchParams(fields).toString(), { "content-type": "application/x-www-form-urlencoded", origin: MAIN_URL, cookie });
  const created = await form("/teams/create", { name: "Platform team with a rather long name" });
  const teamPath = new URL(created.headers.location, MAIN_URL).pathname;
  const member = await person(send, MAIN_URL);
  const invited = JSON.parse((await form(`${teamPath}/invitations/create`, { email: member.email, role: "member" })).text);
  const token = new URL(invited.url).hash.slice("#token=".length);
  expect((await form("/teams/join/accept", { token }, member.cookie)).headers.location).toContain(teamPath);
  await form(`${teamPath}/invitations/create`, { email: "someone.with.a.very.long.address@example.com", role: "admin" });
  return { teamPath, member };
}

test("the teams pages: the list, a team as its owner sees it, the removal's confirmation, the invitation page", async ({ browser, request }) => {
  const send = over(request, MAIN_URL);
  const owner = await person(send, MAIN_URL);
  const { teamPath } = await teamOf(send, owner);
  await auditEverywhere(browser, `${MAIN_URL}/teams`, { person: owner, shot: "teams" });
  await auditEverywhere(browser, `${MAIN_URL}${teamPath}`, {
    person: owner,
    shot: "team",
    after: async (page) => {
      await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Teams" })).toHaveAttribute("aria-current", "true");
      await expect(page.getByRole("region", { name: "Open invitations" })).toContainText("someone.with.a.very.long.address@example.com");
    },
  });
  const removal = await contextFor(browser, owner);
  const page = await removal.newPage();
  await page.goto(`${MAIN_URL}${teamPath}`);
  const memberPath = await page.getByRole("link", { name: "Remove" }).getAttribute("href");
  await removal.close();
  await auditEverywhere(browser, `${MAIN_URL}${memberPath}`, { person: owner, shot: "team-removal" });
  await auditEverywhere(browser, `${MAIN_URL}/teams/join#token=${"t".repeat(43)}`, { shot: "team-join-signed-out" });
});

/**
 * A person with a team and three endpoints, made through the forms: their own to a receiver that
 * answers (its test event delivered), their own to an address where nothing listens (its test
 * event failed for the whole retry schedule, and the endpoint disabled), and the team's.
 */
async function webhooksOf(send: ReturnType<typeof over>, receiver: Receiver) {
  const owner = await person(send, MAIN_URL);
  const form = (path: string, fields: Record<string, string> = {}) =>
    send("POST", path, new URLSearchParams(fields).toString(), { "content-type": "application/x-www-form-urlencoded", origin: MAIN_URL, cookie: owner.cookie });
  const created = await form("/teams/create", { name: "Platform team with a rather long name" });
  const team = new URL(created.headers.location, MAIN_URL).pathname.split("/")[2];
  const endpoint = async (fields: Record<string, string>) => {
    const answer = await form("/webhooks/create", fields);
    expect(answer.status).toBe(201);
    return JSON.parse(answer.text) as { id: string; secret: string };
  };
  const working = await endpoint({
    url: `${receiver.url}?source=initlink&environment=production-eu-west-with-a-rather-long-query-string`,
    description: "Deploy bot, production",
    types: "init.approved init.denied link.created link.revoked access_token.revoked",
  });
  receiver.trust(working.secret);
  const failing = await endpoint({ url: await closedUrl(), types: "access_token.revoked" });
  await endpoint({ url: receiver.url, description: "Team audit log", types: "member.added member.removed member.role_changed", team });
  expect((await form(`/webhooks/${working.id}/test`)).status).toBe(303);
  expect((await form(`/webhooks/${failing.id}/test`)).status).toBe(303);
  const page = async (id: string) => (await send("GET", `/webhooks/${id}`, undefined, { cookie: owner.cookie })).text;
  // The server's worker sends every second; the end-to-end server retries twice, a second apart.
  await expect.poll(() => page(working.id), { timeout: 30_000 }).toContain("Delivered");
  await expect.poll(() => page(failing.id), { timeout: 30_000 }).toContain("Disabled after failing");
  return { owner, working, failing };
}

test("the webhooks pages: the list with a new endpoint's secret shown, an endpoint with its log, the rotation's secret shown and Delete's confirmation open, one disabled after failing", async ({ browser, request }) => {
  const receiver = await startReceiver({ status: 200, body: '{"received":true}' });
  try {
    const { owner, working, failing } = await webhooksOf(over(request, MAIN_URL), receiver);
    await auditEverywhere(browser, `${MAIN_URL}/webhooks`, {
      person: owner,
      shot: "webhooks",
      prepare: async (page) => {
        const form = page.getByRole("form", { name: "New endpoint" });
        await form.getByLabel("Endpoint URL").fill(`${receiver.url}?copy=2`);
        await form.getByLabel("init.approved", { exact: true }).check();
        await form.getByRole("button", { name: "Add endpoint" }).click();
        await expect(page.getByLabel("Signing secret")).toHaveValue(/^whsec_/);
      },
      after: async (page) => {
        await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" })).toHaveAttribute("aria-current", "true");
      },
    });
    await auditEverywhere(browser, `${MAIN_URL}/webhooks/${working.id}?tested=1`, {
      person: owner,
      shot: "webhook",
      prepare: async (page) => {
        await page.getByText("Response body").first().click();
        await page.getByText("Rotate secret…").click();
        await page.getByRole("button", { name: "Rotate secret" }).click();
        await expect(page.getByLabel("New signing secret")).toHaveValue(/^whsec_/);
        await expect(page.getByText("still signs until")).toBeVisible();
        await page.getByText("Delete…").click();
      },
    });
    await auditEverywhere(browser, `${MAIN_URL}/webhooks/${failing.id}`, { person: owner, shot: "webhook-failing" });
  } finally {
    await receiver.close();
  }
});

test("the activity: an approval, a token pickup, two links and a revocation, with This wasn't me's confirmation open", async ({ browser, request }) => {
  const { owner } = await projectWithLinks(over(request, MAIN_URL));
  await auditEverywhere(browser, `${MAIN_URL}/activity`, {
    person: owner,
    shot: "activity",
    prepare: async (page) => {
      await expect(page.getByText("Payments API with a rather long project name").first()).toBeVisible();
      await page.getByText("This wasn’t me…").first().click();
      await expect(page.getByRole("button", { name: "Yes, revoke everything" })).toBeVisible();
    },
  });
});

// The page a report returns to, saying what it revoked.
test("the activity after This wasn't me: what the report revoked", async ({ browser, request }) => {
  const { owner } = await projectWithLinks(over(request, MAIN_URL));
  await auditEverywhere(browser, `${MAIN_URL}/activity`, {
    person: owner,
    shot: "activity-reported",
    prepare: async (page) => {
      await page.getByText("This wasn’t me…").first().click();
      await page.getByRole("button", { name: "Yes, revoke everything" }).click();
      await expect(page.getByRole("status", { name: "What the report revoked" })).toContainText("1 access token");
    },
  });
});

test("a project with its key, links (one just revoked), a Revoke confirmation, the Rename form and the PEM open", async ({ browser, request }) => {
  const { owner, revokedAt } = await projectWithLinks(over(request, MAIN_URL));
  await auditEverywhere(browser, revokedAt, {
    person: owner,
    shot: "project",
    prepare: async (page) => {
      await expect(page.getByRole("status").filter({ hasText: "Revoked the link" })).toBeVisible();
      await page.getByText("Revoke…").click();
      await page.getByText("Rename…").click();
      await page.getByText("The key itself (PEM)").click();
    },
  });
});

test("access tokens and resource-server credentials, each with a new one shown", async ({ browser, request }) => {
  const { owner } = await projectWithLinks(over(request, MAIN_URL));
  await auditEverywhere(browser, `${MAIN_URL}/settings/tokens`, {
    person: owner,
    shot: "tokens",
    prepare: async (page) => {
      await page.getByLabel("Token name").fill("ci runner");
      await page.getByRole("button", { name: "Create token" }).click();
      await expect(page.getByLabel("New access token")).toHaveValue(/^ilat_/);
    },
  });
  await auditEverywhere(browser, `${MAIN_URL}/settings/resource-servers`, {
    person: owner,
    shot: "resource-servers",
    prepare: async (page) => {
      await page.getByLabel("Credential name").fill("payments API, production");
      await page.getByRole("button", { name: "Create credential" }).click();
      await expect(page.getByLabel("Client secret")).toHaveValue(/^ilrss_/);
    },
  });
});

test("the account pages: sessions (two), a refused password change, privacy", async ({ browser, request }) => {
  const send = over(request, MAIN_URL);
  const owner = await person(send, MAIN_URL);
  await send("POST", "/auth/signin", new URLSearchParams({ email: owner.email, password: PASSWORD }).toString(), { "content-type": "application/x-www-form-urlencoded", origin: MAIN_URL });
  await auditEverywhere(browser, `${MAIN_URL}/settings/sessions`, { person: owner, shot: "account-sessions" });
  await auditEverywhere(browser, `${MAIN_URL}/settings/password`, {
    person: owner,
    shot: "account-password-error",
    prepare: async (page) => {
      await page.getByLabel("Current password").fill("not the password");
      await page.getByLabel("New password").fill("a brand new password");
      await page.getByRole("button", { name: "Change password" }).click();
      await expect(page.getByRole("alert").filter({ hasText: "current password is not right" })).toBeVisible();
    },
  });
  await auditEverywhere(browser, `${MAIN_URL}/settings/privacy`, { person: owner, shot: "account-privacy" });
});

test("the link approval page of an existing client (LEGACY_LINK_APPROVAL), waiting", async ({ browser, request }) => {
  const send = over(request, COMPAT_URL);
  const owner = await person(send, COMPAT_URL);
  const init = await initOn(send);
  expect(await approvedIntoNewProject(send, COMPAT_URL, owner.cookie, init.id, "Existing vault")).toBe(true);
  const iv = randomIv();
  // The existing client's link request, with no Authorization: it waits for the person.
  expect((await send("POST", `/api/projects/${init.id}/link/${iv}`, undefined, { "user-agent": "envsync-cli/1.4.2" })).status).toBe(202);
  const metadata = Buffer.from(JSON.stringify({ sender_device: "build-box", sender_ip: "Unknown" })).toString("base64");
  await auditEverywhere(browser, `${COMPAT_URL}/projects/${init.id}/link/${iv}?metadata=${encodeURIComponent(metadata)}`, {
    person: owner,
    shot: "link-approval",
    prepare: async (page) => {
      await expect(page.getByRole("region", { name: "Who is asking" })).toContainText("SHA256:", { timeout: 30_000 });
    },
  });
});
