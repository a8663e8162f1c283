// The worker as the end-to-end tests run it: `wrangler dev` on 127.0.0.1 with free ports, a temporary
// state directory with the D1 migrations applied, the sandbox on, and no network of its own (no
// metrics, no Request.cf download). `startWorker(cleanup)` pushes its undo steps onto `cleanup`, which
// the test runs last-in first-out when it ends. `startWorker(cleanup, { onState })` also calls
// `onState(state)` (and awaits it) with the state directory once the migrations are applied and before
// `wrangler dev` starts, e.g. to seed the local D1 (`wrangler d1 execute DB --local --persist-to state`).
// `startWorker(cleanup, { vars })` passes more vars (`{NAME: value}`), e.g. the loopback allow list.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const WRANGLER = join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js");
export const ADMIN_TOKEN = "e2e-admin-token";
const ENCRYPTION_KEY = "ZTJlLW9ubHktZW5jcnlwdGlvbi1rZXktMzItYnl0ZXM=";

export function freePort() {
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
      // Bounded: wrangler's proxy holds requests while the worker builds.
      if ((await fetch(url, { signal: AbortSignal.timeout(10_000) })).ok) return;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`wrangler dev did not answer on ${url} in time:\n${logs()}`);
}

/** Starts the worker; resolves to its origin (`http://127.0.0.1:<port>`) once it answers. */
export async function startWorker(cleanup, { onState, vars = {} } = {}) {
  const state = mkdtempSync(join(tmpdir(), "e2e-worker-state-"));
  cleanup.push(() => rmSync(state, { recursive: true, force: true }));
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
  if (onState) await onState(state);

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
      ...Object.entries(vars).flatMap(([name, value]) => ["--var", `${name}:${value}`]),
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
  return base;
}

/** An operator API call that must answer 201; resolves to its body. */
export async function adminCall(base, method, path, body) {
  const res = await fetch(`${base}/admin/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(30_000),
  });
  assert.equal(res.status, 201, `${method} ${path}: ${await res.clone().text()}`);
  return res.json();
}

/**
 * A user with a workspace, an account per platform (handles `<name>_<platform>`, lower case) and a key
 * with `abilities`, made through the operator API.
 */
export async function seedTenant(base, { name, email, platforms = ["twitter", "linkedin"], abilities }) {
  const user = await adminCall(base, "POST", "/users", { name, email });
  const workspace = await adminCall(base, "POST", "/workspaces", { user_id: user.id, name });
  const accounts = [];
  for (const platform of platforms)
    accounts.push(
      await adminCall(base, "POST", "/accounts", {
        workspace_id: workspace.id,
        platform,
        username: `${name.toLowerCase()}_${platform}`,
        name,
        avatar: "https://cdn.example.test/a.png",
      }),
    );
  const { key } = await adminCall(base, "POST", "/api-keys", { user_id: user.id, abilities });
  return { user, workspace, accounts, key };
}
