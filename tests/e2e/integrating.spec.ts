import { expect, test } from "@playwright/test";
import * as client from "openid-client";
import { login } from "../../docs/examples/cli-login";
import { introspect } from "../../docs/examples/introspect";
import { bearerVerifier } from "../../docs/examples/verify-bearer";
import { MAIN_URL } from "../../playwright.config";
import { approveTypingTheCode } from "./client-flow";

// docs/integrating.md's examples, run as the guide shows them (docs/examples/, which the guide
// quotes whole: tests/unit/docs/integrating-examples.test.ts): a CLI logs in with an OAuth
// library while a person approves in Chromium, links itself to the project, and the platform's
// API verifies the bearer offline and introspects it with a resource-server credential.

test("the integration guide's CLI login, bearer check and introspection work as written", async ({ page, request }) => {
  let shown: { redirect_url: string; user_code: string } | null = null;
  // MAIN_URL is http:// on this machine: the library then needs to be told it may be.
  const tokens = login(MAIN_URL, (link, code) => (shown = { redirect_url: link, user_code: code }), { execute: [client.allowInsecureRequests] });
  await expect.poll(() => shown, { timeout: 15_000 }).not.toBeNull();
  await approveTypingTheCode(page, shown!, "Guide project");
  const { access_token, project_id } = await tokens;
  const projectId = String(project_id);

  const linked = await request.post(`${MAIN_URL}/api/projects/${projectId}/link/${"cd".repeat(16)}`, { headers: { authorization: `Bearer ${access_token}` } });
  const { bearer } = (await linked.json()) as { bearer: string };
  const userOf = bearerVerifier(MAIN_URL);
  const user = await userOf(bearer, projectId);
  expect(user).toMatchObject({ accountId: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/), upstream: undefined });
  await expect(userOf(bearer, "another-project")).rejects.toThrow();

  await page.goto(`${MAIN_URL}/settings/resource-servers`);
  await page.getByLabel("Credential name").fill("guide API");
  await page.getByLabel("Guide project").check();
  await page.getByRole("button", { name: "Create credential" }).click();
  const credential = { clientId: await page.getByLabel("Client ID").inputValue(), clientSecret: await page.getByLabel("Client secret").inputValue() };
  expect(await introspect(MAIN_URL, credential, bearer.slice("Bearer ".length))).toMatchObject({ active: true, project_id: projectId, account_id: user.accountId });
  expect(await introspect(MAIN_URL, credential, "ilat_not-a-token")).toEqual({ active: false });
  await expect(introspect(MAIN_URL, { ...credential, clientSecret: "wrong" }, access_token)).rejects.toThrow("answered 401");
});
