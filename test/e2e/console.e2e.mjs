// The console in a real browser at phone width (390 px): an operator's invitation link signs the user in
// (the `__Host-session` cookie is Secure, which Chromium accepts on http loopback), the create-key form
// is filled with the keyboard alone, the new key works against the API, and axe-core finds no
// accessibility violation on the pages passed through.
import assert from "node:assert/strict";
import { test } from "node:test";
import { consolePage, tabTo, violations } from "./console-support.mjs";
import { adminCall, startWorker } from "./worker.mjs";

test("the console: sign in by link, create a key with the keyboard, use it", {
  timeout: 240_000,
}, async (t) => {
  const cleanup = [];
  t.after(async () => {
    for (const undo of cleanup.reverse()) await undo();
  });
  const base = await startWorker(cleanup);
  const origin = new URL(base).origin;
  const user = await adminCall(base, "POST", "/users", {
    name: "Console User",
    email: "console-e2e@example.test",
  });
  const { url } = await adminCall(base, "POST", `/users/${user.id}/sign-in-links`);

  const { page, problems } = await consolePage(cleanup, origin);

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

  // Security lists this session; signing out ends it.
  await page.goto(`${base}/console/security`);
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
