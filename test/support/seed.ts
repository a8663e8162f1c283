// Builds tenants through the operator API, so tests exercise it as an operator would.
import { expect } from "vitest";
import type { Mode } from "../../src/db/enums";
import { admin, call } from "./client";

let counter = 0;
const unique = () =>
  `${Date.now().toString(36)}${(counter++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** A user in the default shard, or in `shard` (src/db/shards.ts). */
export async function createUser(name = "Test User", shard?: number) {
  const res = await admin<{ id: number }>("POST", "/users", {
    name,
    email: `user-${unique()}@example.test`,
    ...(shard === undefined ? {} : { shard }),
  });
  expect(res.status).toBe(201);
  return res.body;
}

export async function createWorkspace(userId: number, fields: Record<string, unknown> = {}) {
  const res = await admin<{ id: number; timezone: string }>("POST", "/workspaces", {
    user_id: userId,
    name: `Workspace ${unique()}`,
    ...fields,
  });
  expect(res.status).toBe(201);
  return res.body;
}

export async function createAccount(
  workspaceId: number,
  platform = "twitter",
  fields: Record<string, unknown> = {},
) {
  const res = await admin<{ id: number }>("POST", "/accounts", {
    workspace_id: workspaceId,
    platform,
    username: `handle_${unique()}`,
    name: "Account Name",
    avatar: "https://cdn.example.test/avatar.png",
    ...fields,
  });
  expect(res.status).toBe(201);
  return res.body;
}

export const ALL_ABILITIES = ["posts", "workspaces", "accounts", "labels", "approvals"];

export async function createKey(
  userId: number,
  abilities = ALL_ABILITIES,
  expiresAt: string | null = null,
  mode: Mode = "live",
) {
  const res = await admin<{ id: number; key: string }>("POST", "/api-keys", {
    user_id: userId,
    abilities,
    expires_at: expiresAt,
    mode,
  });
  expect(res.status).toBe(201);
  return res.body;
}

/** A key of `mode` for the user, with every ability. */
export const createKeyIn = (userId: number, mode: Mode) => createKey(userId, ALL_ABILITIES, null, mode);

/** A user with one workspace, two accounts and a key holding every ability. */
export async function createTenant(workspaceFields: Record<string, unknown> = {}, shard?: number) {
  const user = await createUser("Test User", shard);
  // The key does not wait for the workspace (the accounts keep their order: twitter's id is the lower).
  const [[workspace, twitter, linkedin], { key, id: keyId }] = await Promise.all([
    (async () => {
      const workspace = await createWorkspace(user.id, workspaceFields);
      return [
        workspace,
        await createAccount(workspace.id, "twitter"),
        await createAccount(workspace.id, "linkedin"),
      ] as const;
    })(),
    createKey(user.id),
  ]);
  return { user, workspace, accounts: [twitter, linkedin], key, keyId };
}

type Tenant = Awaited<ReturnType<typeof createTenant>>;

/** Creates a post through the API: one account, one text item, unless `fields` says otherwise. */
export async function createPost(t: Tenant, fields: Record<string, unknown> = {}) {
  const res = await call("POST", "/api/v1/posts", {
    key: t.key,
    body: {
      workspace_id: t.workspace.id,
      accounts: [t.accounts[0]!.id],
      content: [{ text: "Hello" }],
      ...fields,
    },
  });
  expect(res.status).toBe(201);
  return res.body;
}

export const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
