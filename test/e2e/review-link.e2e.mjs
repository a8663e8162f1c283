// A review link in a real browser at phone width (390 px): a post waiting for approval in a workspace
// that requires it, its review link opened on a fresh profile (no account, no session), the page free of
// axe-core violations and of sideways scrolling, the note typed and Approve pressed with the keyboard
// alone, and the post then scheduled.
import assert from "node:assert/strict";
import { test } from "node:test";
import { consolePage, navigateBy, tabTo, violations, widerThanViewport } from "./console-support.mjs";
import { seedTenant, startWorker } from "./worker.mjs";

test("a review link: the post as each platform shows it, approved with the keyboard at 390 px", {
  timeout: 240_000,
}, async (t) => {
  const cleanup = [];
  t.after(async () => {
    for (const undo of cleanup.reverse()) await undo();
  });
  const base = await startWorker(cleanup);
  const origin = new URL(base).origin;
  const { workspace, accounts, key } = await seedTenant(base, {
    name: "Bakery",
    email: "review-e2e@example.test",
    abilities: ["posts", "workspaces", "approvals"],
  });
  const api = async (method, path, body) => {
    const res = await fetch(`${base}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    return { status: res.status, body: await res.json() };
  };
  assert.equal((await api("PATCH", `/workspaces/${workspace.id}`, { approval: "required" })).status, 200);
  const created = await api("POST", "/posts", {
    workspace_id: workspace.id,
    accounts: accounts.map((a) => a.id),
    content: [{ text: "Fresh bread at 8.\nCome early!" }, { text: "Gluten-free too." }],
    scheduled_at: new Date(Date.now() + 3600_000).toISOString(),
  });
  assert.equal(created.body.status, "PENDING_APPROVAL");
  const link = await api("POST", `/posts/${created.body.id}/review-links`, { label: "Owner" });
  assert.equal(link.status, 201);

  const { page, problems } = await consolePage(cleanup, origin);
  const opened = await page.goto(link.body.url);
  assert.equal(opened?.status(), 200);
  assert.match(opened.headers()["content-security-policy"], /script-src 'none'/);
  assert.equal(await page.getByRole("heading", { level: 1 }).innerText(), "Review a post");
  assert.ok((await page.getByRole("heading", { name: /LinkedIn/ }).count()) === 1);
  assert.ok((await page.getByText("Reply 1 in the thread").count()) === 1);
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(await widerThanViewport(page), [], "the page scrolls sideways at 390 px");

  // Keyboard only: Tab to the note, type it, Tab to Approve, Enter.
  await tabTo(page, "note", 60);
  await page.keyboard.type("Lovely");
  await page.keyboard.press("Tab");
  await navigateBy(page, () => page.keyboard.press("Enter"));
  await page.waitForSelector("text=Approved");
  assert.equal(await page.getByRole("heading", { level: 1 }).innerText(), "Approved");
  assert.deepEqual(await violations(page), []);

  const after = await api("GET", `/posts/${created.body.id}`);
  assert.equal(after.body.status, "SCHEDULED");
  const reviews = await api("GET", `/posts/${created.body.id}/reviews`);
  assert.deepEqual(
    reviews.body.data.map((r) => [r.action, r.note, r.by.type, r.by.name]),
    [
      ["submitted", null, "key", "API key"],
      ["approved", "Lovely", "link", "Owner"],
    ],
  );
  assert.deepEqual(problems, []);
});
