// Demo data for local development, created through the operator API. Safe to run again: the key is
// kept in .wrangler/demo.json and reused while the operator API still lists it; otherwise the demo is
// (re)built. The demo content is written through the public API by a second user of the demo workspace
// (the seeder), whose key is revoked afterwards: the rate limit counts per user, so the demo user's first
// minute is whole (their key's first request shows X-RateLimit-Remaining: 59).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { adminCall } from "./lib.mjs";

const STATE_FILE = ".wrangler/demo.json";
const DEMO_EMAIL = "demo@example.com";
const SEEDER_EMAIL = "demo-seeder@example.com";
const ABILITIES = ["posts", "workspaces", "accounts", "labels"];

/** Whether the operator API still lists the demo key, unexpired (never a request with the key itself). */
async function keyStillListed(call, state) {
  try {
    const { data } = await call("GET", `/users/${state.user_id}/api-keys`);
    const key = data.find((k) => k.id === state.key_id);
    return key !== undefined && (key.expires_at === null || Date.parse(key.expires_at) > Date.now());
  } catch {
    return false;
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it answers something truthy, for at most `ms`. */
async function waitFor(check, ms = 30_000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const value = await check();
    if (value) return value;
    await sleep(1000);
  }
  return null;
}

/**
 * A label, a folder, a scheduled thread, a draft, and two posts published on the sandbox with their
 * analytics synced, created through the public API like a client would.
 */
async function seedContent(baseUrl, key, workspaceId) {
  const api = async (method, path, body) => {
    const response = await fetch(new URL(`/api/v1${path}`, baseUrl), {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path} → ${response.status}: ${await response.text()}`);
    return response.json();
  };
  const { data: accounts } = await fetch(new URL("/api/v1/accounts", baseUrl), {
    headers: { authorization: `Bearer ${key}` },
  }).then((r) => r.json());
  const label = await api("POST", "/labels", { workspace_id: workspaceId, name: "Launch", color: "#4F46E5" });
  await api("POST", "/folders", { workspace_id: workspaceId, name: "Brand assets" });
  await api("POST", "/posts", {
    workspace_id: workspaceId,
    accounts: accounts.map((a) => a.id),
    content: [{ text: "We are live! 🚀" }, { text: "Here is what is new, in a thread." }],
    scheduled_at: new Date(Date.now() + 24 * 3600_000).toISOString(),
    labels: [label.id],
    settings: { twitter: { reply_settings: "everyone" } },
  });
  await api("POST", "/posts", {
    workspace_id: workspaceId,
    accounts: [accounts[0].id],
    content: [{ text: "An idea for next week" }],
  });
  // Published now on the sandbox platform (the publish queue does it within a second or two), then
  // their metrics fetched, so the analytics endpoints have something to show from the start.
  const published = [];
  for (const text of ["Hello from the demo workspace 👋", "Behind the scenes: how we plan a launch"]) {
    published.push(
      await api("POST", "/posts", {
        workspace_id: workspaceId,
        accounts: accounts.map((a) => a.id),
        content: [{ text }],
        publish_now: true,
        labels: [label.id],
      }),
    );
  }
  for (const post of published) {
    const done = await waitFor(async () => (await api("GET", `/posts/${post.id}`)).status === "PUBLISHED");
    if (!done) {
      console.warn(`demo post ${post.id} is not published yet; its analytics will come with the next sync`);
      continue;
    }
    await api("POST", `/analytics/posts/${post.id}/sync`);
  }
}

/** Writes the demo content as the seeder, a member of the workspace, with a key revoked afterwards. */
async function seedAsSeeder(baseUrl, call, workspaceId) {
  const found = await call("GET", `/users?email=${encodeURIComponent(SEEDER_EMAIL)}`);
  const seeder =
    found.data[0] ??
    // In the demo user's shard: both take NEW_USER_SHARD, as members of one workspace must share one.
    (await call("POST", "/users", { name: "Demo seeder (npm run dev)", email: SEEDER_EMAIL }));
  await call("PUT", `/users/${seeder.id}/subscription`, { status: "active" });
  await call("POST", `/workspaces/${workspaceId}/members`, { user_id: seeder.id });
  const key = await call("POST", "/api-keys", {
    user_id: seeder.id,
    name: "Demo seed",
    abilities: ABILITIES,
    mode: "test",
  });
  try {
    await seedContent(baseUrl, key.key, workspaceId);
  } finally {
    await call("DELETE", `/api-keys/${key.id}`).catch(() => undefined);
  }
}

export async function seedDemo(baseUrl, adminToken) {
  const call = (method, path, body) => adminCall(baseUrl, adminToken, method, path, body);
  if (existsSync(STATE_FILE)) {
    const state = JSON.parse(readFileSync(STATE_FILE, "utf8"));
    if (await keyStillListed(call, state)) return state;
  }
  const found = await call("GET", `/users?email=${encodeURIComponent(DEMO_EMAIL)}`);
  let user = found.data[0];
  let workspace;
  const fresh = !user;
  if (!user) {
    user = await call("POST", "/users", { name: "Demo User", email: DEMO_EMAIL });
    workspace = await call("POST", "/workspaces", {
      user_id: user.id,
      name: "Demo Workspace",
      type: "ORGANIZATION",
      timezone: "Europe/Paris",
      // Test mode (docs/guide.md "Test mode"): the quick start reads the same on a laptop and on a
      // deployment, where test data only ever reaches the platforms' emulators.
      mode: "test",
    });
    for (const [platform, username, name] of [
      ["twitter", "demo_brand", "Demo Brand"],
      ["linkedin", "demo-brand", "Demo Brand Inc."],
      // Threads rather than Instagram: the quick start's text-only post is one Instagram refuses.
      ["threads", "demo.brand", "Demo Brand"],
    ]) {
      await call("POST", "/accounts", {
        workspace_id: workspace.id,
        platform,
        username,
        name,
        avatar: `https://avatars.example.com/${username}.png`,
        is_verified: platform === "twitter",
      });
    }
    await call("PUT", `/users/${user.id}/subscription`, { status: "active" });
  }
  const apiKey = await call("POST", "/api-keys", {
    user_id: user.id,
    name: "Demo key",
    abilities: ABILITIES,
    mode: "test",
  });
  const { signing_secret } = await call("POST", `/api-keys/${apiKey.id}/signing-secret`);
  if (fresh) await seedAsSeeder(baseUrl, call, workspace.id);
  const state = { user_id: user.id, key_id: apiKey.id, key: apiKey.key, signing_secret };
  mkdirSync(".wrangler", { recursive: true });
  writeFileSync(STATE_FILE, `${JSON.stringify(state, null, 2)}\n`);
  return state;
}

/** A fresh console sign-in link for the demo user (single use, 15 minutes): printed at each start. */
export async function demoSignInLink(baseUrl, adminToken, userId) {
  const { url } = await adminCall(baseUrl, adminToken, "POST", `/users/${userId}/sign-in-links`);
  return url;
}
