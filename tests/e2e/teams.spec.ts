import { expect, test, type Browser, type Page } from "@playwright/test";
import { createLink, pickUpToken, randomIv } from "../helpers/journey.mjs";
import { createInit, newEmail, over, PASSWORD, STARTED_IT } from "./flow";

// Teams as three people use them (docs/teams.md), each in a browser of their own: the owner makes
// a team and invites an admin and a member; they join through their links (the member signs up
// from hers); the member approves her laptop into the team's project and the client links; the
// admin sees that link on the project's page and revokes it; the member leaves, and what she
// approved is revoked with her; the last owner cannot leave.

test.describe.configure({ timeout: 180_000 });

async function signUp(browser: Browser, email: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto("/signup");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).not.toHaveURL(/\/signup/);
  return page;
}

/** The owner's invitation of `email` as `role`: the link the page shows once. */
async function invite(owner: Page, email: string, role: "Admin" | "Member"): Promise<string> {
  const form = owner.getByRole("form", { name: "Invite someone" });
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Role").selectOption({ label: role });
  await form.getByRole("button", { name: "Invite" }).click();
  const shown = owner.getByRole("region", { name: `Invitation for ${email}` });
  // Listed among the open invitations once the page has refreshed, the link still shown.
  await expect(owner.getByRole("region", { name: "Open invitations" })).toContainText(email);
  const url = await shown.getByLabel("Invitation link").inputValue();
  expect(url).toMatch(/\/teams\/join#token=[A-Za-z0-9_-]{43}$/);
  return url;
}

test("three people share a team: invite, join, approve into its project, an admin revokes, a member leaves, the last owner stays", async ({ browser, request }) => {
  const [ownerEmail, adminEmail, memberEmail] = [newEmail(), newEmail(), newEmail()];

  // The owner makes the team from the header's Teams.
  const owner = await signUp(browser, ownerEmail);
  await owner.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Teams" }).click();
  await owner.getByLabel("Team name").fill("Acme platform");
  await owner.getByRole("button", { name: "Create team" }).click();
  await expect(owner.getByRole("heading", { name: "Acme platform", level: 1 })).toBeVisible();
  const teamUrl = owner.url();
  const adminLink = await invite(owner, adminEmail, "Admin");
  const memberLink = await invite(owner, memberEmail, "Member");

  // The admin has an account already: signed in, the link joins.
  const admin = await signUp(browser, adminEmail);
  await admin.goto(adminLink);
  await admin.getByRole("button", { name: "Join the team" }).click();
  await expect(admin.getByRole("heading", { name: "Acme platform", level: 1 })).toBeVisible();

  // The member opens her link signed out, signs up from it, and comes back to join.
  const member = await (await browser.newContext()).newPage();
  await member.goto(memberLink);
  await expect(member).not.toHaveURL(/#token=/);
  await member.getByRole("main").getByRole("link", { name: "Sign up" }).click();
  await member.getByLabel("Email").fill(memberEmail);
  await member.getByLabel("Password").fill(PASSWORD);
  await member.getByRole("button", { name: "Create account" }).click();
  await expect(member).toHaveURL(/\/teams\/join/);
  await member.getByRole("button", { name: "Join the team" }).click();
  await expect(member.getByRole("heading", { name: "Acme platform", level: 1 })).toBeVisible();
  // A spent link says so.
  await member.goto(memberLink);
  await member.getByRole("button", { name: "Join the team" }).click();
  await expect(member.getByText("accepted already")).toBeVisible();

  // The admin approves the team's CLI into a new project of the team.
  const send = over(request);
  const first = await createInit(request);
  await admin.goto(first.redirect_url);
  await admin.getByRole("textbox", { name: "New project name" }).fill("@acme/cli");
  await admin.getByLabel("Where to make the new project").selectOption({ label: "Team: Acme platform" });
  await admin.getByLabel(STARTED_IT).check();
  await admin.getByRole("button", { name: "Approve" }).click();
  await expect(admin.getByRole("heading", { name: "Approved" })).toBeVisible();

  // The member's own laptop: the page starts on the team's project of the client's name.
  const second = await createInit(request);
  await member.goto(second.redirect_url);
  await expect(member.getByRole("radio", { name: "@acme/cli" })).toBeChecked();
  await member.getByLabel(STARTED_IT).check();
  await member.getByRole("button", { name: "Approve" }).click();
  await expect(member.getByRole("heading", { name: "Approved" })).toBeVisible();
  const picked = await pickUpToken(send, second);
  expect(picked.project).toMatchObject({ name: "@acme/cli", team_id: expect.any(String) });
  const link = await createLink(send, picked.project_id, picked.access_token);
  expect(link.success).toBe(true);

  // The admin sees who approved the member's client and revokes its link.
  await admin.goto(`/projects/${picked.project_id}`);
  const entry = admin.getByRole("listitem").filter({ hasText: memberEmail });
  await expect(entry).toContainText("Approved by");
  await entry.getByText("Revoke…").click();
  await entry.getByRole("button", { name: "Yes, revoke" }).click();
  expect((await request.get(`/api/projects/${picked.project_id}`, { headers: { authorization: link.bearer } })).status()).toBe(401);

  // The member leaves: the page lists her token, and leaving revokes it.
  await member.goto(teamUrl);
  await member.getByRole("link", { name: "Leave team" }).click();
  await expect(member.getByRole("heading", { name: "Access tokens" })).toBeVisible();
  await member.getByRole("button", { name: "Leave Acme platform" }).click();
  await expect(member).toHaveURL(/\/teams\?left=1/);
  const again = await request.post(`/api/projects/${picked.project_id}/link/${randomIv()}`, { headers: { authorization: `Bearer ${picked.access_token}` } });
  expect(again.status()).toBe(401);
  await member.goto(`/projects/${picked.project_id}`);
  await expect(member.getByRole("heading", { name: "@acme/cli" })).toHaveCount(0);

  // The one owner cannot leave: the page says why and offers no button.
  await owner.goto(teamUrl);
  await owner.getByRole("link", { name: "Leave team" }).click();
  await expect(owner.getByText("A team keeps at least one owner")).toBeVisible();
  await expect(owner.getByRole("button", { name: "Leave Acme platform" })).toHaveCount(0);
});
