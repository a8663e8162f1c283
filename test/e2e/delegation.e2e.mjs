// End to end in a real browser: `wrangler dev` with the sandbox on (isolated state, free ports), the
// example app on 127.0.0.1, and Debian's Chromium driven by playwright-core. The browser follows
// authorize_url, types a handle, clicks Allow, lands on the app's callback, and the app verifies the
// proof. Run by `npm test` after vitest (`npm run test:e2e`); every process it starts is stopped.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { startExampleApp } from "./example-app.mjs";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const WRANGLER = join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js");
const CHROMIUM = "/usr/bin/chromium";
const ADMIN_TOKEN = "e2e-admin-token";
const ENCRYPTION_KEY = "ZTJlLW9ubHktZW5jcnlwdGlvbi1rZXktMzItYnl0ZXM=";
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Stops a process started with `detached: true`, and its children (workerd), by its group id. */
async function stopGroup(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const signal = (name) => {
    try {
      process.kill(-child.pid, name);
    } catch {}
  };
  signal("SIGTERM");
  const timer = setTimeout(() => signal("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}

async function waitUntilUp(url, child, logs, deadline = Date.now() + 120_000) {
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited (${child.exitCode}):\n${logs()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`wrangler dev did not answer on ${url} in time:\n${logs()}`);
}

async function adminCall(base, method, path, body) {
  const res = await fetch(`${base}/admin/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
    body: body ? JSON.stringify(body) : undefined,
  });
  assert.equal(res.status, 201, `${method} ${path}: ${await res.clone().text()}`);
  return res.json();
}

test("a real browser connects a sandbox account and the example app verifies the proof", {
  timeout: 240_000,
}, async (t) => {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: apt-get install -y chromium`);
  // Undone last-in first-out once the test ends, whatever happened: browser, app, wrangler, files.
  const cleanup = [];
  t.after(async () => {
    for (const undo of cleanup.reverse()) await undo();
  });
  const state = mkdtempSync(join(tmpdir(), "delegation-e2e-state-"));
  const profile = mkdtempSync(join(tmpdir(), "delegation-e2e-chromium-"));
  cleanup.push(() => {
    rmSync(state, { recursive: true, force: true });
    rmSync(profile, { recursive: true, force: true });
  });
  const [port, inspectorPort] = [await freePort(), await freePort()];
  const base = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    WRANGLER_SEND_METRICS: "false",
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
    CI: "true",
    NO_COLOR: "1",
  };

  const migrate = spawnSync(
    process.execPath,
    [WRANGLER, "d1", "migrations", "apply", "DB", "--local", "--persist-to", state],
    { cwd: ROOT, env, encoding: "utf8", timeout: 120_000 },
  );
  assert.equal(migrate.status, 0, `migrations failed:\n${migrate.stdout}\n${migrate.stderr}`);

  const wrangler = spawn(
    process.execPath,
    [
      WRANGLER,
      "dev",
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--inspector-port",
      String(inspectorPort),
      "--persist-to",
      state,
      "--show-interactive-dev-session=false",
      "--log-level",
      "warn",
      "--var",
      "SANDBOX:true",
      "--var",
      `ADMIN_TOKEN:${ADMIN_TOKEN}`,
      "--var",
      `ENCRYPTION_KEY:${ENCRYPTION_KEY}`,
      "--var",
      `PUBLIC_BASE_URL:${base}`,
    ],
    { cwd: ROOT, env, detached: true, stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  wrangler.stdout.on("data", (chunk) => {
    output += chunk;
  });
  wrangler.stderr.on("data", (chunk) => {
    output += chunk;
  });
  cleanup.push(() => stopGroup(wrangler));
  await waitUntilUp(`${base}/`, wrangler, () => output);

  // The application's credentials, made through the operator API.
  const user = await adminCall(base, "POST", "/users", {
    name: "Example App",
    email: `app-${Date.now()}@example.test`,
  });
  const key = await adminCall(base, "POST", "/api-keys", { user_id: user.id, abilities: ["posts"] });
  const { signing_secret } = await adminCall(base, "POST", `/api-keys/${key.id}/signing-secret`);

  const app = await startExampleApp({ serviceUrl: base, apiKey: key.key, signingSecret: signing_secret });
  cleanup.push(() => app.close());

  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    timeout: 60_000,
  });
  cleanup.push(() => context.close());
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(30_000);

  await t.test("Allow: the app receives and verifies a signed proof", async () => {
    const handle = "Ada Lovelace & Co = Zoë";
    const consent = page.waitForResponse((r) =>
      r.url().startsWith(`${base}/sandbox/twitter/oauth/authorize?`),
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
    assert.equal(result.proof.handle, handle);
    assert.match(result.proof.platform_id, /^\d{18}$/);
    assert.ok(result.proof.expires > Date.now() / 1000 + 250);

    // Reloading the callback replays the proof: the app's single-use state refuses it.
    await page.reload();
    assert.equal(JSON.parse(await page.textContent("#result")).reason, "state_rejected");
  });

  await t.test("Deny: the app receives access_denied and no proof", async () => {
    await page.goto(`${app.origin}/connect?platform=linkedin`);
    await page.waitForURL(`${base}/sandbox/linkedin/oauth/authorize?**`);
    await Promise.all([page.waitForURL(`${app.origin}/callback?**`), page.click('button[value="deny"]')]);
    const result = JSON.parse(await page.textContent("#result"));
    assert.equal(result.ok, false);
    assert.equal(result.reason, "callback_error");
    assert.equal(result.error, "access_denied");
    assert.ok(!new URL(page.url()).searchParams.has("sig"));
  });

  assert.equal(app.results.length, 3);
});
