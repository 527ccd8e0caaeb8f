import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { expect, type Page } from "@playwright/test";
import type { AxeResults } from "axe-core";

// axe-core's engine, evaluated in the page once per load and run there as often as the test
// asks. @axe-core/playwright injects it into every frame and merges the frames' results in a new
// blank page on each call: about a second a call on these machines, against 50 ms for the run
// itself. Our pages have no frames (frame-ancestors 'none', no iframe), so the run in the top
// document is the whole audit.
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** The page's axe violations (every rule axe enables by default), each as "rule: elements". */
export async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const { axe } = window as unknown as { axe: { run: () => Promise<AxeResults> } };
    const results = await axe.run();
    return results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`);
  });
}

/** Zero axe violations, listed by rule and element when there are some. */
export async function expectNoViolations(page: Page) {
  expect(await axeViolations(page)).toEqual([]);
}
