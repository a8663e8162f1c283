// The API reference in a real browser: `wrangler dev` (as the delegation test runs it) with the demo data
// of `npm run dev` (scripts/seed.mjs), a headless Chromium (./browser.mjs) opens /docs, Swagger UI renders
// every operation of /openapi.json, not one request the page makes leaves the worker's origin (the page
// must work offline), and "Try it out" on `POST /api/v1/posts`, sent with the document's own example and
// the demo key, creates the post (201).
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { seedDemo } from "../../scripts/seed.mjs";
import { findChromium, launchChromium } from "./browser.mjs";
import { ADMIN_TOKEN, startWorker } from "./worker.mjs";

// Operations the reference must show, whatever else it holds.
const REQUIRED = [
  ["get", "/api/v1/workspaces"],
  ["get", "/api/v1/labels"],
  ["get", "/api/v1/posts"],
  ["post", "/api/oauth/delegate/sessions"],
];
const METHODS = new Set(["get", "put", "post", "delete", "patch", "head", "options", "trace"]);

/** Every operation of an OpenAPI document, as `[method, path]`. */
/** The document's operations: its paths', and its webhooks' (Swagger UI shows both). */
const operationsOf = (document) =>
  [document.paths, document.webhooks].flatMap((items) =>
    Object.entries(items ?? {}).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((method) => METHODS.has(method))
        .map((method) => [method, path]),
    ),
  );

test("/docs renders the API reference from the worker's own origin", { timeout: 240_000 }, async (t) => {
  const chromium = findChromium();
  const cleanup = [];
  t.after(async () => {
    for (const undo of cleanup.reverse()) await undo();
  });
  const profile = mkdtempSync(join(tmpdir(), "docs-e2e-chromium-"));
  cleanup.push(() => rmSync(profile, { recursive: true, force: true }));
  const base = await startWorker(cleanup);
  const origin = new URL(base).origin;
  // The demo data, as `npm run dev` makes it; its state file goes to a scratch folder, not the repository's.
  const demoDir = mkdtempSync(join(tmpdir(), "docs-e2e-demo-"));
  cleanup.push(() => rmSync(demoDir, { recursive: true, force: true }));
  const cwd = process.cwd();
  process.chdir(demoDir);
  const demo = await seedDemo(base, ADMIN_TOKEN).finally(() => process.chdir(cwd));
  // Seeding spent none of the demo user's rate limit: the key's first request leaves 59 of 60.
  const first = await fetch(`${base}/api/v1/workspaces`, {
    headers: { authorization: `Bearer ${demo.key}` },
    signal: AbortSignal.timeout(30_000),
  });
  assert.equal(first.status, 200);
  assert.equal(first.headers.get("x-ratelimit-remaining"), "59");
  const [workspace] = (await first.json()).data;
  assert.equal(workspace?.name, "Demo Workspace");
  // The demo content is there, published and scheduled, in the demo user's workspace.
  const demoPosts = await fetch(`${base}/api/v1/posts?workspace_id=${workspace.id}`, {
    headers: { authorization: `Bearer ${demo.key}` },
    signal: AbortSignal.timeout(30_000),
  });
  const statuses = (await demoPosts.json()).data.map((post) => post.status).sort();
  assert.ok(statuses.includes("SCHEDULED") && statuses.includes("DRAFT"), statuses.join());

  const documentAnswer = await fetch(`${base}/openapi.json`, { signal: AbortSignal.timeout(30_000) });
  assert.equal(documentAnswer.status, 200);
  const documented = operationsOf(await documentAnswer.json());
  const listed = (method, path) => documented.some(([m, p]) => m === method && p === path);
  for (const [method, path] of REQUIRED) {
    assert.ok(listed(method, path), `${method.toUpperCase()} ${path} is missing from /openapi.json`);
  }

  const context = await launchChromium(profile, { path: chromium.path });
  cleanup.push(() => context.close());
  // Every request of every page, recorded; one for another origin is also refused, so that the test
  // itself stays offline whatever the page tries.
  const requests = [];
  context.on("request", (request) => requests.push(request.url()));
  const offOrigin = (url) => url.protocol !== "data:" && url.origin !== origin;
  await context.route(offOrigin, (route) => route.abort("blockedbyclient"));

  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(30_000);
  const problems = [];
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console error: ${message.text()}`);
  });

  const answer = await page.goto(`${base}/docs`);
  assert.equal(answer?.status(), 200);
  assert.match(answer.headers()["content-security-policy"], /default-src 'none'/);

  for (const [method, path] of REQUIRED) {
    const summary = page.locator(`.opblock.opblock-${method} .opblock-summary-path[data-path="${path}"]`);
    await summary.first().waitFor({ state: "visible" });
  }
  // Swagger UI shows every operation the document has, no more, no fewer.
  assert.equal(await page.locator(".opblock").count(), documented.length);
  await page.waitForLoadState("networkidle");

  const paths = requests.map((url) => new URL(url)).map((url) => (offOrigin(url) ? url.href : url.pathname));
  for (const path of ["/docs", "/docs/swagger-ui.css", "/docs/swagger-ui-bundle.js", "/openapi.json"]) {
    assert.ok(paths.includes(path), `the page did not request ${path}: ${paths.join(", ")}`);
  }
  assert.deepEqual(
    requests.filter((url) => offOrigin(new URL(url))),
    [],
    "requests left the worker's origin",
  );
  assert.deepEqual(problems, []);

  // "Try it out" on POST /api/v1/posts with the example the document gives, as a new user would.
  await page.locator(".btn.authorize").first().click();
  await page.locator(".modal-ux input").first().fill(demo.key);
  await page.locator(".modal-ux .auth-btn-wrapper .authorize").first().click();
  await page.locator(".modal-ux .btn-done, .modal-ux .close-modal").first().click();
  const create = page.locator("#operations-Posts-createPost");
  await create.locator(".opblock-summary").first().click();
  await create.locator(".try-out__btn").click();
  const sent = page.waitForResponse(
    (response) => response.url() === `${base}/api/v1/posts` && response.request().method() === "POST",
  );
  await create.locator(".btn.execute").click();
  const response = await sent;
  const created = await response.json();
  assert.equal(response.status(), 201, JSON.stringify(created));
  assert.equal(created.status, "DRAFT");
  assert.deepEqual(
    created.platforms.map((row) => row.account_id),
    [1, 2, 3],
  );
  const status = create.locator(".live-responses-table tbody .response-col_status").first();
  await status.waitFor({ state: "visible" });
  assert.match(await status.innerText(), /201/);
  assert.deepEqual(problems, []);
});
