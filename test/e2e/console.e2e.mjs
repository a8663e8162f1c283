// The console in a real browser at phone width (390 px): an operator's invitation link signs the user in
// (the `__Host-session` cookie is Secure, which Chromium accepts on http loopback), the create-key form
// is filled with the keyboard alone, the new key works against the API, a webhook endpoint is added and
// sent a test event, and axe-core finds no accessibility violation on the pages passed through.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { findChromium, launchChromium } from "./browser.mjs";
import { adminCall, startWorker } from "./worker.mjs";

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** axe-core's violations on the page (run through the DevTools protocol, which the page's CSP does not govern). */
async function violations(page) {
  await page.evaluate(AXE);
  const result = await page.evaluate(() => globalThis.axe.run(document, { resultTypes: ["violations"] }));
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

/** Presses Tab until the element with `id` has focus (at most `limit` times). */
async function tabTo(page, id, limit = 30) {
  for (let i = 0; i < limit; i++) {
    if ((await page.evaluate(() => document.activeElement?.id)) === id) return;
    await page.keyboard.press("Tab");
  }
  assert.fail(`Tab never reached #${id}`);
}

test("the console: sign in by link, create a key with the keyboard, use it", {
  timeout: 240_000,
}, async (t) => {
  const chromium = findChromium();
  const cleanup = [];
  t.after(async () => {
    for (const undo of cleanup.reverse()) await undo();
  });
  const profile = mkdtempSync(join(tmpdir(), "console-e2e-chromium-"));
  cleanup.push(() => rmSync(profile, { recursive: true, force: true }));
  const base = await startWorker(cleanup);
  const origin = new URL(base).origin;
  const user = await adminCall(base, "POST", "/users", {
    name: "Console User",
    email: "console-e2e@example.test",
  });
  const { url } = await adminCall(base, "POST", `/users/${user.id}/sign-in-links`);

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

  // The link opens a confirmation page; its button (pressed with the keyboard) signs in.
  const confirm = await page.goto(url);
  assert.equal(confirm?.status(), 200);
  assert.match(confirm.headers()["content-security-policy"], /default-src 'self'/);
  assert.deepEqual(await violations(page), []);
  await page.getByRole("button", { name: "Sign in" }).focus();
  await Promise.all([page.waitForURL(`${base}/console/keys`), page.keyboard.press("Enter")]);
  assert.equal(await page.getByRole("heading", { level: 1 }).innerText(), "API keys");
  assert.deepEqual(await violations(page), []);

  // The create form, keyboard only: Tab to the name, type, Space on two abilities, Enter on the button.
  await tabTo(page, "key-name");
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
  assert.notEqual(outline, "none", "the focused field shows no focus ring");
  await page.keyboard.type("Browser key");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Space"); // posts
  await page.keyboard.press("Tab");
  await page.keyboard.press("Space"); // workspaces
  await tabTo(page, "key-expires");
  await page.keyboard.press("Tab");
  await Promise.all([page.waitForLoadState("load"), page.keyboard.press("Enter")]);
  await page.waitForSelector("#shown-value");
  const key = (await page.locator("#shown-value").innerText()).trim();
  assert.match(key, /^spk_/);
  assert.deepEqual(await violations(page), []);
  // Readable at 390 px: nothing wider than the viewport.
  assert.ok(
    await page.evaluate(() => document.documentElement.scrollWidth <= 390),
    "the page scrolls sideways at 390 px",
  );

  const me = await fetch(`${base}/api/v1/me`, { headers: { authorization: `Bearer ${key}` } });
  assert.equal(me.status, 200);
  const workspaces = await fetch(`${base}/api/v1/workspaces`, {
    headers: { authorization: `Bearer ${key}` },
  });
  assert.equal(workspaces.status, 200);

  // Webhooks: add an endpoint (its secret shown once), open its deliveries, send a test event.
  await adminCall(base, "POST", "/workspaces", { user_id: user.id, name: "Console workspace" });
  await page.goto(`${base}/console/webhooks`);
  assert.deepEqual(await violations(page), []);
  await page.getByLabel(/^URL/).fill("https://hooks.example.com/console-e2e");
  await page.getByLabel("post.published").check();
  await Promise.all([
    page.waitForLoadState("load"),
    page.getByRole("button", { name: "Add endpoint" }).click(),
  ]);
  await page.waitForSelector("#shown-value");
  assert.match(await page.locator("#shown-value").innerText(), /^whsec_/);
  assert.deepEqual(await violations(page), []);
  assert.ok(
    await page.evaluate(() => document.documentElement.scrollWidth <= 390),
    "webhooks scrolls sideways",
  );
  await page.getByRole("link", { name: "https://hooks.example.com/console-e2e" }).click();
  await page.getByRole("heading", { name: "Deliveries", exact: true }).waitFor();
  await Promise.all([
    page.waitForLoadState("load"),
    page.getByRole("button", { name: "Send a test event" }).click(),
  ]);
  await page.getByRole("heading", { name: /webhook\.test/ }).waitFor();
  assert.deepEqual(await violations(page), []);
  assert.ok(
    await page.evaluate(() => document.documentElement.scrollWidth <= 390),
    "deliveries scroll sideways",
  );

  // Security lists this session and the log of key and secret events; signing out ends it.
  await page.goto(`${base}/console/security`);
  await page.getByText("Key created").waitFor();
  assert.deepEqual(await violations(page), []);
  await Promise.all([
    page.waitForURL(`${base}/console/sign-in`),
    page.getByRole("button", { name: "Sign out", exact: true }).click(),
  ]);
  assert.deepEqual(await violations(page), []);
  await page.goto(`${base}/console/keys`);
  assert.equal(page.url(), `${base}/console/sign-in`);
  assert.deepEqual(problems, []);
});
