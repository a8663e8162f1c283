// Demo data for local development, created through the operator API. Safe to run again: the key is
// kept in .wrangler/demo.json and reused while it still works; otherwise the demo is (re)built.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { adminCall } from "./lib.mjs";

const STATE_FILE = ".wrangler/demo.json";
const DEMO_EMAIL = "demo@example.com";

async function keyStillWorks(baseUrl, key) {
  const response = await fetch(new URL("/api/v1/workspaces", baseUrl), {
    headers: { authorization: `Bearer ${key}` },
  });
  if (!response.ok) return false;
  const body = await response.json();
  return body.data.length > 0;
}

export async function seedDemo(baseUrl, adminToken) {
  if (existsSync(STATE_FILE)) {
    const state = JSON.parse(readFileSync(STATE_FILE, "utf8"));
    if (await keyStillWorks(baseUrl, state.key)) return state;
  }
  const call = (method, path, body) => adminCall(baseUrl, adminToken, method, path, body);
  const found = await call("GET", `/users?email=${encodeURIComponent(DEMO_EMAIL)}`);
  let user = found.data[0];
  let workspace;
  if (!user) {
    user = await call("POST", "/users", { name: "Demo User", email: DEMO_EMAIL });
    workspace = await call("POST", "/workspaces", {
      user_id: user.id,
      name: "Demo Workspace",
      type: "ORGANIZATION",
      timezone: "Europe/Paris",
    });
    for (const [platform, username, name] of [
      ["twitter", "demo_brand", "Demo Brand"],
      ["linkedin", "demo-brand", "Demo Brand Inc."],
      ["instagram", "demo.brand", "Demo Brand"],
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
    abilities: ["posts", "workspaces", "accounts", "labels"],
  });
  const { signing_secret } = await call("POST", `/api-keys/${apiKey.id}/signing-secret`);
  const state = { user_id: user.id, key_id: apiKey.id, key: apiKey.key, signing_secret };
  mkdirSync(".wrangler", { recursive: true });
  writeFileSync(STATE_FILE, `${JSON.stringify(state, null, 2)}\n`);
  return state;
}
