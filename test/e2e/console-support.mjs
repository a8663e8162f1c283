// What the console's Chromium tests share: a 390 px page on a fresh profile that may reach only the
// worker's origin and records the page's errors, axe-core's violations, keyboard focus helpers, and the
// two waits every check after a navigation needs (the new document loaded, its stylesheet included).
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findChromium, launchChromium } from "./browser.mjs";

/** The phone width every console page is checked at. */
export const VIEWPORT_WIDTH = 390;

/**
 * How late the stylesheet arrives on every page: a check that runs before a page has loaded then fails
 * every time instead of on a slow machine only (CI once measured a page before its stylesheet came).
 */
const STYLESHEET_DELAY_MS = 250;

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** axe-core's violations on the page (run through the DevTools protocol, which the page's CSP does not govern). */
export async function violations(page) {
  await page.evaluate(AXE);
  const result = await page.evaluate(() => globalThis.axe.run(document, { resultTypes: ["violations"] }));
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

/**
 * Runs `act` (a key press or click that submits a form or follows a link) and waits until the document
 * it navigates to has loaded. `waitForLoadState("load")` beside the action is not that wait: it answers
 * at once for the page still showing.
 */
export async function navigateBy(page, act) {
  const committed = page.waitForEvent("framenavigated", {
    predicate: (frame) => frame === page.mainFrame(),
  });
  await act();
  await committed;
  await page.waitForLoadState("load");
}

/**
 * What reaches past the viewport's width once the page has loaded: `[]` when nothing scrolls sideways,
 * else each element too wide (tag, id, classes, right edge), which names the culprit in the failure.
 */
export async function widerThanViewport(page) {
  await page.waitForLoadState("load");
  return page.evaluate((width) => {
    if (document.documentElement.scrollWidth <= width) return [];
    const name = (el) =>
      `${el.localName}${el.id ? `#${el.id}` : ""}${[...el.classList].map((c) => `.${c}`).join("")}`;
    const wide = [...document.body.querySelectorAll("*")]
      .map((el) => [el, Math.ceil(el.getBoundingClientRect().right)])
      .filter(([, right]) => right > width)
      .map(([el, right]) => `${name(el)} ends at ${right} px`);
    return wide.length ? wide : [`html is ${document.documentElement.scrollWidth} px wide`];
  }, VIEWPORT_WIDTH);
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
  await context.route("**/console/assets/*.css", async (route) => {
    await new Promise((done) => setTimeout(done, STYLESHEET_DELAY_MS));
    await route.fallback();
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(30_000);
  await page.setViewportSize({ width: VIEWPORT_WIDTH, height: 844 });
  const problems = [];
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console error: ${message.text()}`);
  });
  return { context, page, problems };
}
