// The console in a real browser at phone width (390 px): an operator's invitation link signs the user in
// (the `__Host-session` cookie is Secure, which Chromium accepts on http loopback), the create-key form
// is filled with the keyboard alone, the new key works against the API, a workspace is created and a
// sandbox account connected from the accounts page (keyboard again), a follower's comment on the
// published post answered from the comments page (keyboard), a webhook endpoint is added and sent a
// test event, a second browser's session revoked from the security page, and axe-core finds no
// accessibility violation on the pages passed through.
import assert from "node:assert/strict";
import { test } from "node:test";
import { consolePage, navigateBy, tabTo, violations, widerThanViewport } from "./console-support.mjs";
import { adminCall, startWorker } from "./worker.mjs";

test("the console: sign in by link, create a key with the keyboard, use it, connect an account", {
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
  await navigateBy(page, () => page.keyboard.press("Enter"));
  await page.waitForSelector("#shown-value");
  const key = (await page.locator("#shown-value").innerText()).trim();
  assert.match(key, /^spk_/);
  assert.deepEqual(await violations(page), []);
  // Readable at 390 px: nothing wider than the viewport.
  assert.deepEqual(await widerThanViewport(page), [], "the page scrolls sideways at 390 px");

  const me = await fetch(`${base}/api/v1/me`, { headers: { authorization: `Bearer ${key}` } });
  assert.equal(me.status, 200);
  const workspaces = await fetch(`${base}/api/v1/workspaces`, {
    headers: { authorization: `Bearer ${key}` },
  });
  assert.equal(workspaces.status, 200);

  // A post scheduled through the API with that key is on the week calendar (in the workspace's zone),
  // then published by the sandbox: the list shows the status change and the post's link.
  const workspace = await adminCall(base, "POST", "/workspaces", {
    user_id: user.id,
    name: "Bakery",
    timezone: "America/New_York",
  });
  const account = await adminCall(base, "POST", "/accounts", {
    workspace_id: workspace.id,
    platform: "twitter",
    username: "bakery",
    name: "Bakery",
  });
  const scheduled = await fetch(`${base}/api/v1/posts`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({
      workspace_id: workspace.id,
      accounts: [account.id],
      content: [{ text: "Fresh bread at nine" }],
      scheduled_at: new Date(Date.now() + 3_000).toISOString(),
    }),
  });
  assert.equal(scheduled.status, 201);
  const post = await scheduled.json();
  const day = post.scheduled_at.slice(0, 10);
  await page.goto(`${base}/console/posts/calendar?workspace_id=${workspace.id}&start=${day}`);
  assert.match(await page.locator(".day").first().innerText(), /Fresh bread at nine/);
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(await widerThanViewport(page), [], "the calendar scrolls sideways");
  const row = page.locator("li.card", { hasText: `Post #${post.id}` });
  for (let tries = 0; ; tries++) {
    await page.goto(`${base}/console/posts`);
    if ((await row.locator("dd .status").innerText()) === "PUBLISHED") break;
    assert.ok(tries < 30, "the post was not published within 30 s");
    await new Promise((done) => setTimeout(done, 1_000));
  }
  assert.match(await row.locator("a.url").innerText(), /^https?:\/\//);
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(await widerThanViewport(page), [], "the list scrolls sideways");

  // Comments: a follower comments on the published post; a sync brings it into the inbox, and the
  // account's reply is written and sent with the keyboard, then shown under the comment.
  const { platforms } = await (
    await fetch(`${base}/api/v1/posts/${post.id}`, { headers: { authorization: `Bearer ${key}` } })
  ).json();
  const said = "Is there rye tomorrow?";
  const fan = await fetch(`${base}/sandbox/twitter/accounts/bakery/comments`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      post_id: platforms[0].platform_post_id,
      text: said,
      author: { name: "Fan One", username: "fan_one" },
    }),
  });
  assert.equal(fan.status, 201, await fan.text());
  const synced = await fetch(`${base}/api/v1/analytics/posts/${post.id}/sync`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}` },
  });
  assert.equal(synced.status, 200, await synced.text());
  const card = page.locator("li.card", { hasText: said });
  for (let tries = 0; ; tries++) {
    await page.goto(`${base}/console/comments`);
    if ((await card.count()) > 0) break;
    assert.ok(tries < 30, "the comment did not reach the inbox within 30 s");
    await new Promise((done) => setTimeout(done, 1_000));
  }
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(await widerThanViewport(page), [], "comments: wider than 390 px");
  const commentId = (await card.getAttribute("id")).replace("comment-", "");
  await page.locator(`#reply-${commentId}`).focus();
  await page.keyboard.type("Yes, from eight.");
  await page.keyboard.press("Tab");
  await navigateBy(page, () => page.keyboard.press("Enter"));
  await page.locator(`#comment-${commentId} .replies`, { hasText: "Yes, from eight." }).waitFor();
  assert.deepEqual(await violations(page), []);

  // Workspaces: create one with the keyboard (Enter in the zone field submits the form).
  await page.goto(`${base}/console/workspaces`);
  assert.deepEqual(await violations(page), []);
  await tabTo(page, "workspace-name");
  await page.keyboard.type("Browser studio");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Control+A");
  await page.keyboard.type("Europe/Paris");
  await navigateBy(page, () => page.keyboard.press("Enter"));
  await page.getByRole("heading", { name: "Browser studio" }).waitFor();
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(await widerThanViewport(page), [], "workspaces: wider than 390 px");

  // Accounts: connect a sandbox X account, keyboard only, through the same OAuth flow as the API's.
  await page.goto(`${base}/console/accounts`);
  assert.deepEqual(await violations(page), []);
  await tabTo(page, "connect-platform");
  await page.keyboard.type("X");
  await page.keyboard.press("Tab");
  await Promise.all([page.waitForURL(`${base}/console/accounts/connect`), page.keyboard.press("Enter")]);
  const onward = page.getByRole("link", { name: "Continue to X (Twitter)" });
  await onward.waitFor();
  assert.deepEqual(await violations(page), []);
  await onward.focus();
  await Promise.all([page.waitForURL(/\/sandbox\//), page.keyboard.press("Enter")]);
  // The sandbox's consent page focuses its handle field; Enter presses its first button, Allow.
  await page.keyboard.press("Control+A");
  await page.keyboard.type("browser_ada");
  await Promise.all([page.waitForURL(/\/console\/accounts\?status=connected/), page.keyboard.press("Enter")]);
  assert.match(await page.getByRole("status").innerText(), /Connected: browser_ada/);
  assert.ok(await page.getByRole("heading", { name: "browser_ada (X (Twitter))", level: 3 }).isVisible());
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(await widerThanViewport(page), [], "accounts: wider than 390 px");

  // Webhooks: add an endpoint (its secret shown once), open its deliveries, send a test event.
  await adminCall(base, "POST", "/workspaces", { user_id: user.id, name: "Console workspace" });
  await page.goto(`${base}/console/webhooks`);
  assert.deepEqual(await violations(page), []);
  await page.getByLabel(/^URL/).fill("https://hooks.example.com/console-e2e");
  await page.getByLabel("post.published").check();
  await navigateBy(page, () => page.getByRole("button", { name: "Add endpoint" }).click());
  await page.waitForSelector("#shown-value");
  assert.match(await page.locator("#shown-value").innerText(), /^whsec_/);
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(await widerThanViewport(page), [], "webhooks scrolls sideways");
  await page.getByRole("link", { name: "https://hooks.example.com/console-e2e" }).click();
  await page.getByRole("heading", { name: "Deliveries", exact: true }).waitFor();
  await navigateBy(page, () => page.getByRole("button", { name: "Send a test event" }).click());
  await page.getByRole("heading", { name: /webhook\.test/ }).waitFor();
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(await widerThanViewport(page), [], "deliveries scroll sideways");

  // Security lists this session and the log of key and secret events; signing out ends it.
  await page.goto(`${base}/console/security`);
  await page.getByText("Key created").waitFor();
  assert.deepEqual(await violations(page), []);
  // Another browser signs in by a second invitation link; revoking its session here signs it out there.
  const second = await consolePage(cleanup, origin);
  await second.page.goto((await adminCall(base, "POST", `/users/${user.id}/sign-in-links`)).url);
  await Promise.all([
    second.page.waitForURL(`${base}/console/keys`),
    second.page.getByRole("button", { name: "Sign in" }).click(),
  ]);
  await page.goto(`${base}/console/security`);
  await Promise.all([
    page.waitForURL(`${base}/console/security`),
    page.getByRole("button", { name: "Revoke", exact: true }).click(),
  ]);
  assert.equal(await page.getByRole("button", { name: "Revoke", exact: true }).count(), 0);
  await second.page.goto(`${base}/console/keys`);
  assert.equal(second.page.url(), `${base}/console/sign-in`);
  assert.deepEqual(second.problems, []);
  await Promise.all([
    page.waitForURL(`${base}/console/sign-in`),
    page.getByRole("button", { name: "Sign out", exact: true }).click(),
  ]);
  assert.deepEqual(await violations(page), []);
  await page.goto(`${base}/console/keys`);
  assert.equal(page.url(), `${base}/console/sign-in`);
  assert.deepEqual(problems, []);
});
