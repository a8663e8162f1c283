// What the console's Chromium tests share: a 390 px page on a fresh profile that may reach only the
// worker's origin and records the page's errors, axe-core's violations, and keyboard focus helpers.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findChromium, launchChromium } from "./browser.mjs";

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** axe-core's violations on the page (run through the DevTools protocol, which the page's CSP does not govern). */
export async function violations(page) {
  await page.evaluate(AXE);
  const result = await page.evaluate(() => globalThis.axe.run(document, { resultTypes: ["violations"] }));
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

/** Presses Tab until the element with `id` has focus (at most `limit` times). */
export async function tabTo(page, id, limit = 30) {
  for (let i = 0; i < limit; i++) {
    if ((await page.evaluate(() => document.activeElement?.id)) === id) return;
    await page.keyboard.press("Tab");
  }
  assert.fail(`Tab never reached #${id}`);
}

/**
 * A Chromium page at 390 px on a fresh profile (closed and removed by `cleanup`) that reaches nothing
 * but `origin`; `problems` collects the page's errors and console errors.
 */
export async function consolePage(cleanup, origin) {
  const chromium = findChromium();
  const profile = mkdtempSync(join(tmpdir(), "console-e2e-chromium-"));
  cleanup.push(() => rmSync(profile, { recursive: true, force: true }));
  const context = await launchChromium(profile, { path: chromium.path });
  cleanup.push(() => context.close());
  const offOrigin = (target) => target.protocol !== "data:" && target.origin !== origin;
  await context.route(offOrigin, (route) => route.abort("blockedbyclient"));
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(30_000);
  await page.setViewportSize({ width: 390, height: 844 });
  const problems = [];
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console error: ${message.text()}`);
  });
  return { context, page, problems };
}
