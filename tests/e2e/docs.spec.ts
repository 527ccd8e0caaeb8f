import { expect, test } from "@playwright/test";

// /docs renders the OpenAPI document with the bundled Swagger UI under the pages' strict CSP:
// every operation is listed, nothing is refused by the policy, and nothing is fetched from
// another origin.

type Doc = { paths: Record<string, Record<string, { summary: string }>> };

test("the docs page lists every operation, with no CSP violation and nothing from another origin", async ({ page, request, baseURL }) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    // The site has no /favicon.ico (its icon is app/icon.svg): the browser's own request for it is not the page's.
    if (message.location().url.endsWith("/favicon.ico")) return;
    if (message.type() === "error" || message.text().includes("Content Security Policy")) violations.push(message.text());
  });
  page.on("pageerror", (error) => violations.push(`page error: ${error.message}`));
  await page.exposeFunction("reportCspViolation", (violation: string) => violations.push(violation));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      (window as unknown as { reportCspViolation: (violation: string) => void }).reportCspViolation(`${event.violatedDirective}: ${event.blockedURI}`);
    });
  });
  const foreign: string[] = [];
  page.on("request", (sent) => {
    const url = new URL(sent.url());
    if (url.protocol !== "data:" && url.origin !== new URL(baseURL!).origin) foreign.push(sent.url());
  });

  const response = await page.goto("/docs");
  expect(response?.headers()["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
  expect(response?.headers()["content-security-policy"]).not.toContain("unsafe-inline");
  await expect(page.getByRole("heading", { level: 1, name: "API reference" })).toBeVisible();

  const answer = await request.get("/api/openapi.json");
  expect(answer.headers()["cache-control"]).toBe("public, max-age=300");
  const doc = (await answer.json()) as Doc;
  const operations = Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ path, method, summary: operation.summary })));
  expect(operations.length).toBeGreaterThan(5);
  // Swagger UI fetches and renders the document after the page loads: seconds on a busy machine.
  await expect(page.locator(".swagger-ui .opblock").first()).toBeVisible({ timeout: 30_000 });
  for (const operation of operations) {
    const block = page.locator(`.opblock-${operation.method}`).filter({ has: page.locator(`[data-path="${operation.path}"]`) });
    await expect(block, `${operation.method} ${operation.path}`).toBeVisible();
    await expect(block).toContainText(operation.summary);
  }

  // An operation opens to its answers and error codes.
  await page.locator('.opblock-post [data-path="/api/init"]').click();
  // Swagger UI resolves the operation before it shows it: slow on a busy machine.
  await expect(page.locator(".responses-table").first()).toContainText("rate_limited", { timeout: 20_000 });
  await expect(page.locator(".swagger-ui .errors-wrapper")).toHaveCount(0);
  await page.screenshot({ path: "test-results/screenshots/docs.png", fullPage: false });

  expect(violations).toEqual([]);
  expect(foreign).toEqual([]);

  // The watch itself works: an inline style element, which the policy refuses, is seen.
  await page.evaluate(() => document.head.append(Object.assign(document.createElement("style"), { textContent: "body { color: red; }" })));
  await expect.poll(() => violations.some((violation) => violation.startsWith("style-src"))).toBe(true);
});
