// Builds tenants with the operator API's own code: each helper parses its fields with the route's body
// schema and calls the function the route calls (src/admin), so a tenant is made exactly as
// `POST /admin/v1/...` makes it, without a request per record. The routes themselves, HTTP included,
// are tested in test/admin and by the route contract. A tenant is five records, and the suite makes
// about 1,300 of them: through the API they cost ~12 ms more each (measured in workerd).
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { presentAccount } from "../../src/accounts/present";
import { issueKey } from "../../src/admin/key-queries";
import {
  createAccount as insertAccount,
  createUser as insertUser,
  createWorkspace as insertWorkspace,
} from "../../src/admin/queries";
import {
  createAccountBody,
  createApiKeyBody,
  createUserBody,
  createWorkspaceBody,
} from "../../src/admin/schemas";
import type { Mode } from "../../src/db/enums";
import { OPERATOR } from "../../src/db/security-events";
import { shardDatabases } from "../../src/db/shards";
import { presentWorkspace } from "../../src/workspaces/present";
import { call } from "./client";

let counter = 0;
const unique = () =>
  `${Date.now().toString(36)}${(counter++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

const shards = () => shardDatabases(env);

/** A user in the default shard, or in `shard` (src/db/shards.ts): `POST /admin/v1/users`. */
export async function createUser(name = "Test User", shard?: number): Promise<{ id: number }> {
  const body = createUserBody.parse({
    name,
    email: `user-${unique()}@example.test`,
    ...(shard === undefined ? {} : { shard }),
  });
  return insertUser(shards(), env, body);
}

/** `POST /admin/v1/workspaces`. */
export async function createWorkspace(
  userId: number,
  fields: Record<string, unknown> = {},
): Promise<{ id: number; timezone: string }> {
  const body = createWorkspaceBody.parse({ user_id: userId, name: `Workspace ${unique()}`, ...fields });
  return presentWorkspace(await insertWorkspace(shards(), body));
}

/** `POST /admin/v1/accounts`. */
export async function createAccount(
  workspaceId: number,
  platform = "twitter",
  fields: Record<string, unknown> = {},
): Promise<{ id: number }> {
  const body = createAccountBody.parse({
    workspace_id: workspaceId,
    platform,
    username: `handle_${unique()}`,
    name: "Account Name",
    avatar: "https://cdn.example.test/avatar.png",
    ...fields,
  });
  return presentAccount(await insertAccount(shards().of(workspaceId), body));
}

export const ALL_ABILITIES = ["posts", "workspaces", "accounts", "labels", "approvals"];

/** `POST /admin/v1/api-keys`: the key, shown once, and its id. */
export async function createKey(
  userId: number,
  abilities = ALL_ABILITIES,
  expiresAt: string | null = null,
  mode: Mode = "live",
): Promise<{ id: number; key: string }> {
  const body = createApiKeyBody.parse({ user_id: userId, abilities, expires_at: expiresAt, mode });
  return issueKey(shards().of(userId), body, OPERATOR);
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
