// End to end in a real browser: `wrangler dev` with the sandbox on (isolated state, free ports), the
// example app on 127.0.0.1, and a headless Chromium (found by ./browser.mjs) driven by playwright-core.
// The browser follows authorize_url, types a handle, clicks Allow, lands on the app's callback, and the
// app verifies the proof; an account owner connects a Facebook Page and reconnects it. Run by `npm test` after vitest (`npm run test:e2e`); every process it starts
// is stopped.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { findChromium, launchChromium } from "./browser.mjs";
import { startExampleApp } from "./example-app.mjs";
import { adminCall, startWorker } from "./worker.mjs";

test("a real browser connects a sandbox account and the example app verifies the proof", {
  timeout: 240_000,
}, async (t) => {
  const chromium = findChromium();
  // Undone last-in first-out once the test ends, whatever happened: browser, app, wrangler, files.
  const cleanup = [];
  t.after(async () => {
    for (const undo of cleanup.reverse()) await undo();
  });
  const profile = mkdtempSync(join(tmpdir(), "delegation-e2e-chromium-"));
  cleanup.push(() => rmSync(profile, { recursive: true, force: true }));
  const base = await startWorker(cleanup);

  // The application's credentials, made through the operator API.
  const user = await adminCall(base, "POST", "/users", {
    name: "Example App",
    email: `app-${Date.now()}@example.test`,
  });
  const key = await adminCall(base, "POST", "/api-keys", { user_id: user.id, abilities: ["posts"] });
  const { signing_secret } = await adminCall(base, "POST", `/api-keys/${key.id}/signing-secret`);

  const app = await startExampleApp({ serviceUrl: base, apiKey: key.key, signingSecret: signing_secret });
  cleanup.push(() => app.close());

  const context = await launchChromium(profile, { path: chromium.path });
  cleanup.push(() => context.close());
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(30_000);

  await t.test("Allow: the app receives and verifies a signed proof", async () => {
    const handle = "Ada Lovelace & Co = Zoë";
    const consent = page.waitForResponse((r) =>
      r.url().startsWith(`${base}/sandbox/twitter/i/oauth2/authorize?`),
    );
    await page.goto(`${app.origin}/connect?platform=twitter`);
    const consentPage = await consent;
    const headers = consentPage.headers();
    assert.equal(headers["referrer-policy"], "no-referrer");
    assert.equal(headers["cache-control"], "no-store");
    assert.equal(headers["x-frame-options"], "DENY");
    assert.match(headers["content-security-policy"], /default-src 'none'/);

    await page.fill('input[name="handle"]', handle);
    await Promise.all([page.waitForURL(`${app.origin}/callback?**`), page.click('button[value="allow"]')]);
    const result = JSON.parse(await page.textContent("#result"));
    assert.equal(result.ok, true, JSON.stringify(result));
    assert.equal(result.proof.platform, "twitter");
    // & and = never reach a signed value (they could re-split the signed string): the handle is cleaned.
    assert.equal(result.proof.handle, "Ada Lovelace  Co  Zoë");
    assert.match(result.proof.platform_id, /^\d{18}$/);
    assert.ok(result.proof.expires > Date.now() / 1000 + 250);

    // Reloading the callback replays the proof: the app's single-use state refuses it.
    await page.reload();
    assert.equal(JSON.parse(await page.textContent("#result")).reason, "state_rejected");
  });

  await t.test("Deny: the app receives access_denied and no proof", async () => {
    await page.goto(`${app.origin}/connect?platform=linkedin`);
    await page.waitForURL(`${base}/sandbox/linkedin/oauth/v2/authorization?**`);
    await Promise.all([page.waitForURL(`${app.origin}/callback?**`), page.click('button[value="deny"]')]);
    const result = JSON.parse(await page.textContent("#result"));
    assert.equal(result.ok, false);
    assert.equal(result.reason, "callback_error");
    assert.equal(result.error, "access_denied");
    assert.ok(!new URL(page.url()).searchParams.has("sig"));
  });

  // The Page account connected below, with its owner's API calls: the reconnect case repairs it.
  let connected;

  await t.test("Connect: the user picks a Facebook Page on the service's channel page", async () => {
    const owner = await adminCall(base, "POST", "/users", {
      name: "Page Owner",
      email: `owner-${Date.now()}@example.test`,
    });
    const ownerKey = await adminCall(base, "POST", "/api-keys", {
      user_id: owner.id,
      abilities: ["accounts"],
    });
    const api = async (method, path, body) => {
      const res = await fetch(`${base}/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${ownerKey.key}`, "content-type": "application/json" },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: res.status, body: await res.json() };
    };
    const workspace = await adminCall(base, "POST", "/workspaces", { user_id: owner.id, name: "Bakery" });
    const started = await api("POST", "/accounts/connect", {
      workspace_id: workspace.id,
      platform: "facebook",
      redirect_url: `${app.origin}/connected`,
    });
    assert.equal(started.status, 201, JSON.stringify(started.body));

    await page.goto(started.body.authorize_url);
    await page.waitForURL(`${base}/sandbox/facebook/v25.0/dialog/oauth?**`);
    await page.fill('input[name="handle"]', "baker");
    const picker = page.waitForResponse((r) => r.url().startsWith(`${base}/api/oauth/delegate/callback?`));
    await page.click('button[value="allow"]');
    const pickerPage = await picker;
    assert.equal(pickerPage.status(), 200);
    assert.equal(pickerPage.headers()["cache-control"], "no-store");
    assert.equal(pickerPage.headers()["x-frame-options"], "DENY");
    assert.equal(await page.textContent("h1"), "Choose where to publish on Facebook");
    const labels = await page.locator('button[name="channel"]').allTextContents();
    assert.deepEqual(labels, ["baker's Page", "baker's Shop"]);

    await Promise.all([
      page.waitForURL(`${app.origin}/connected?**`),
      page.click('button[name="channel"] >> text="baker\'s Shop"'),
    ]);
    const landed = new URL(page.url());
    assert.equal(landed.searchParams.get("status"), "connected");
    assert.equal(landed.searchParams.get("platform"), "facebook");
    const accounts = await api("GET", `/accounts?workspace_id=${workspace.id}`);
    const account = accounts.body.data.find((a) => String(a.id) === landed.searchParams.get("account_id"));
    assert.equal(account.username, "baker-shop");
    assert.equal(account.name, "baker's Shop");
    connected = { api, account };
  });

  await t.test("Reconnect: the same Page again keeps the account; another Page is refused", async () => {
    assert.ok(connected, "the connect case ran");
    const { api, account } = connected;
    const reconnectTo = async (label) => {
      const started = await api("POST", `/accounts/${account.id}/reconnect`, {
        redirect_url: `${app.origin}/connected`,
      });
      assert.equal(started.status, 201, JSON.stringify(started.body));
      assert.equal(started.body.expires_in, 900);
      await page.goto(started.body.authorize_url);
      await page.waitForURL(`${base}/sandbox/facebook/v25.0/dialog/oauth?**`);
      await page.fill('input[name="handle"]', "baker");
      await Promise.all([
        page.waitForURL(`${base}/api/oauth/delegate/callback?**`),
        page.click('button[value="allow"]'),
      ]);
      await Promise.all([
        page.waitForURL(`${app.origin}/connected?**`),
        page.click(`button[name="channel"] >> text="${label}"`),
      ]);
      return new URL(page.url()).searchParams;
    };

    const other = await reconnectTo("baker's Page");
    assert.equal(other.get("error"), "connection_failed");
    assert.match(other.get("error_description"), /not the one being reconnected/);
    assert.equal(other.has("account_id"), false);

    const same = await reconnectTo("baker's Shop");
    assert.equal(same.get("status"), "connected");
    assert.equal(same.get("account_id"), String(account.id));
    const shown = await api("GET", `/accounts/${account.id}`);
    assert.equal(shown.status, 200);
    assert.equal(shown.body.username, "baker-shop");
    assert.equal(shown.body.has_expired, false);
    assert.equal(shown.body.health.status, "ok");
    const list = await api("GET", "/accounts");
    assert.deepEqual(
      list.body.data.filter((a) => a.platform === "facebook").map((a) => a.id),
      [account.id],
    );
  });

  assert.equal(app.results.length, 3);
});
