import { expect, test, type Browser } from "@playwright/test";
import { COMPAT_URL, MAIN_URL } from "../../playwright.config";
import { approvedIntoNewProject, createInit, randomIv, sessionCookieName, signUp, type Person, type Send } from "../helpers/journey.mjs";
import { newEmail, over, sendFrom } from "./flow";

// The approval pages (app/approval-parts.tsx) put Approve and Deny within the first screen, the
// viewport's height, in the common case (a person with one to three projects, or a few in teams), on a desktop
// (1280×800) and a phone (390×844), from the client's network and from another one (proximity:
// the one warning card, then the typed code, or Deny alone for a client that shows no code).
// A screenshot of each first screen, light and dark, goes to test-results/screenshots/first-screen/.

const SIZES = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
];

const REPORT = { sender: "@acme/deploy-cli", sender_device: "Ana’s laptop", sender_os: "macOS 15", sender_ip: "192.168.1.10" };

/** 127.0.0.0/8 answers on this machine: a client at 127.0.9.4 is on another network than the browser (127.0.0.1). */
const ELSEWHERE = "127.0.9.4";

type Signed = Person & { site: string };

/** A new person with `projects` projects (each made by approving an init into it). */
async function personWithProjects(send: Send, site: string, projects: number): Promise<Signed> {
  const person = { ...(await signUp(send, { site, email: newEmail() })), site };
  for (let at = 1; at <= projects; at += 1) {
    const init = await createInit(send, REPORT);
    expect(await approvedIntoNewProject(send, site, person.cookie, init.id, `Project ${at}`)).toBe(true);
  }
  return person;
}

/** Opens `url` at each size, as `person`, and checks that the decision's buttons are on the first screen, with nothing scrolling sideways. */
async function expectDecisionOnFirstScreen(browser: Browser, person: Signed, url: string, shot: string, buttons: ("Approve" | "Deny")[]) {
  for (const size of SIZES) {
    const context = await browser.newContext({ viewport: { width: size.width, height: size.height }, colorScheme: "light" });
    await context.addCookies([{ name: sessionCookieName(person.site), value: person.session, url: person.site }]);
    const page = await context.newPage();
    await page.goto(url);
    await expect(page.getByRole("region", { name: "Your decision" })).toBeVisible();
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: `test-results/screenshots/first-screen/${shot}-${size.name}-${scheme}.png` });
    }
    for (const name of ["Approve", "Deny"] as const) {
      const button = page.getByRole("button", { name, exact: true });
      if (!buttons.includes(name)) {
        await expect(button).toHaveCount(0);
        continue;
      }
      const box = await button.boundingBox();
      expect(box, `${name} is rendered (${size.name})`).not.toBeNull();
      expect(box!.y, `${name} (${size.name})`).toBeGreaterThanOrEqual(0);
      expect(box!.y + box!.height, `${name} ends within the first screen (${size.name})`).toBeLessThanOrEqual(size.height);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await context.close();
  }
}

test.describe.configure({ timeout: 120_000 });

test("the init page: Approve and Deny on the first screen with one project, from the client's network", async ({ browser, request }) => {
  const send = over(request, MAIN_URL);
  const person = await personWithProjects(send, MAIN_URL, 1);
  const init = await createInit(send, REPORT);
  await expectDecisionOnFirstScreen(browser, person, init.redirect_url, "init-one-project", ["Approve", "Deny"]);
});

test("the init page: Approve and Deny on the first screen with three projects, from the client's network", async ({ browser, request }) => {
  const send = over(request, MAIN_URL);
  const person = await personWithProjects(send, MAIN_URL, 3);
  const init = await createInit(send, REPORT);
  await expectDecisionOnFirstScreen(browser, person, init.redirect_url, "init-three-projects", ["Approve", "Deny"]);
});

/** `person`'s team named `name` with one project of its own, made through the forms as a person would. */
async function teamWithProject(send: Send, person: Signed, name: string): Promise<void> {
  const form = (path: string, fields: Record<string, string>) =>
    send("POST", path, new URLSearchParams(fields).toString(), { "content-type": "application/x-www-form-urlencoded", origin: person.site, cookie: person.cookie });
  const teamId = /\/teams\/([A-Za-z0-9_-]{22})\?/.exec((await form("/teams/create", { name })).headers.location ?? "")?.[1];
  expect(teamId).toBeDefined();
  const init = await createInit(send, REPORT);
  const approved = await form(`/init/${init.id}/approve`, { project: "new", name: `${name} service`, team: teamId ?? "", code_confirmed: "yes" });
  expect(approved.headers.location).toBe(new URL(`/init/${init.id}`, person.site).toString());
}

test("the init page: Approve and Deny on the first screen with a personal project and two teams' projects, grouped by team", async ({ browser, request }) => {
  const send = over(request, MAIN_URL);
  const person = await personWithProjects(send, MAIN_URL, 1);
  await teamWithProject(send, person, "Payments team");
  await teamWithProject(send, person, "Platform team");
  const init = await createInit(send, REPORT);
  await expectDecisionOnFirstScreen(browser, person, init.redirect_url, "init-teams", ["Approve", "Deny"]);
});

// Proximity: the warning card, a flagged public address, and the code typed, with three projects.
test("the init page from another network: the warning, the typed code, Approve and Deny on the first screen with three projects", async ({ browser, request }) => {
  const person = await personWithProjects(over(request, MAIN_URL), MAIN_URL, 3);
  const init = await createInit(sendFrom(MAIN_URL, ELSEWHERE), { ...REPORT, sender_ip: "8.8.8.8", user_code_shown: true });
  await expectDecisionOnFirstScreen(browser, person, init.redirect_url, "init-elsewhere-code", ["Approve", "Deny"]);
});

// A client that shows no code cannot be approved from another network: Deny alone, on the first screen.
test("the init page from another network, a client that shows no code: Deny on the first screen, no Approve", async ({ browser, request }) => {
  const person = await personWithProjects(over(request, MAIN_URL), MAIN_URL, 3);
  const init = await createInit(sendFrom(MAIN_URL, ELSEWHERE), REPORT);
  await expectDecisionOnFirstScreen(browser, person, init.redirect_url, "init-elsewhere-no-code", ["Deny"]);
});

/** A person's project whose existing client (LEGACY_LINK_APPROVAL) asks for a link from `send`'s address: the page's URL. */
async function linkWaiting(request: Parameters<typeof over>[0], client: Send): Promise<{ person: Signed; url: string }> {
  const send = over(request, COMPAT_URL);
  const person = await personWithProjects(send, COMPAT_URL, 2);
  const init = await createInit(send, REPORT);
  expect(await approvedIntoNewProject(send, COMPAT_URL, person.cookie, init.id, "Existing vault")).toBe(true);
  const iv = randomIv();
  expect((await client("POST", `/api/projects/${init.id}/link/${iv}`, undefined, { "user-agent": "envsync-cli/1.4.2" })).status).toBe(202);
  const metadata = Buffer.from(JSON.stringify({ sender_device: "build-box", sender_ip: "Unknown" })).toString("base64");
  return { person, url: `${COMPAT_URL}/projects/${init.id}/link/${iv}?metadata=${encodeURIComponent(metadata)}` };
}

test("the link approval page: Approve and Deny on the first screen, from the client's network", async ({ browser, request }) => {
  const { person, url } = await linkWaiting(request, over(request, COMPAT_URL));
  await expectDecisionOnFirstScreen(browser, person, url, "link", ["Approve", "Deny"]);
});

test("the link approval page from another network: the warning, and Deny on the first screen, no Approve", async ({ browser, request }) => {
  const { port } = new URL(COMPAT_URL);
  const { person, url } = await linkWaiting(request, sendFrom(`http://127.0.0.1:${port}`, ELSEWHERE));
  await expectDecisionOnFirstScreen(browser, person, url, "link-elsewhere", ["Deny"]);
});
