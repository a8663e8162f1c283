// The route contracts of the operator API (/admin/v1): every route, behind the operator token. Budgets
// count the handler's own D1 round trips (no key lookup here); the key list calls the user's
// Coordinator (each key's last use), and every key change tells it the key changed. The tests run two
// shards (src/db/shards.ts): a user's email and a workspace's slug are checked in every shard at once
// (one round trip per shard, one hop), before the write in the user's shard.
import { shardOfId } from "../../src/db/shards";
import { admin } from "../support/client";
import type { RouteContract } from "../support/contract";
import { createUser } from "../support/seed";

const unique = () => crypto.randomUUID().slice(0, 8);

export const adminContracts: RouteContract[] = [
  {
    method: "POST",
    route: "/admin/v1/users",
    auth: "admin",
    jsonBody: true,
    request: () => ({
      path: "/admin/v1/users",
      body: { name: "Ada", email: `ada-${unique()}@example.test` },
    }),
    status: 201,
    budget: { db: 2, gate: 0, hops: 2 },
  },
  {
    method: "GET",
    route: "/admin/v1/users",
    auth: "admin",
    request: async () => {
      const email = `grace-${unique()}@example.test`;
      await admin("POST", "/users", { name: "Grace", email });
      return { path: `/admin/v1/users?email=${encodeURIComponent(email)}` };
    },
    status: 200,
    budget: { db: 2, gate: 0, hops: 1 },
  },
  {
    method: "POST",
    route: "/admin/v1/workspaces",
    auth: "admin",
    jsonBody: true,
    request: (t) => ({
      path: "/admin/v1/workspaces",
      body: { user_id: t.user.id, name: `Acme ${unique()}` },
    }),
    status: 201,
    budget: { db: 3, gate: 0, hops: 2 },
  },
  {
    method: "POST",
    route: "/admin/v1/workspaces/{id}/members",
    auth: "admin",
    jsonBody: true,
    request: async (t) => {
      // A member shares the workspace's shard.
      const member = await createUser("Member", shardOfId(t.workspace.id));
      return { path: `/admin/v1/workspaces/${t.workspace.id}/members`, body: { user_id: member.id } };
    },
    status: 201,
    budget: { db: 2, gate: 0, hops: 2 },
  },
  {
    method: "POST",
    route: "/admin/v1/accounts",
    auth: "admin",
    jsonBody: true,
    request: (t) => ({
      path: "/admin/v1/accounts",
      body: { workspace_id: t.workspace.id, platform: "threads", username: `h_${unique()}`, name: "Ada" },
    }),
    status: 201,
    budget: { db: 2, gate: 0, hops: 2 },
  },
  {
    method: "PUT",
    route: "/admin/v1/users/{id}/subscription",
    auth: "admin",
    jsonBody: true,
    request: (t) => ({ path: `/admin/v1/users/${t.user.id}/subscription`, body: { status: "active" } }),
    status: 200,
    budget: { db: 2, gate: 0, hops: 2 },
  },
  {
    method: "POST",
    route: "/admin/v1/api-keys",
    auth: "admin",
    jsonBody: true,
    request: (t) => ({ path: "/admin/v1/api-keys", body: { user_id: t.user.id, abilities: ["posts"] } }),
    status: 201,
    budget: { db: 2, gate: 0, hops: 2 },
  },
  {
    method: "GET",
    route: "/admin/v1/users/{id}/api-keys",
    auth: "admin",
    request: (t) => ({ path: `/admin/v1/users/${t.user.id}/api-keys` }),
    status: 200,
    budget: { db: 1, gate: 1, hops: 2 },
  },
  {
    method: "DELETE",
    route: "/admin/v1/api-keys/{id}",
    auth: "admin",
    request: (t) => ({ path: `/admin/v1/api-keys/${t.keyId}` }),
    status: 200,
    budget: { db: 1, gate: 1, hops: 2 },
  },
  {
    method: "POST",
    route: "/admin/v1/api-keys/{id}/roll",
    auth: "admin",
    request: (t) => ({ path: `/admin/v1/api-keys/${t.keyId}/roll` }),
    status: 201,
    budget: { db: 1, gate: 1, hops: 2 },
  },
  {
    method: "POST",
    route: "/admin/v1/api-keys/{id}/signing-secret",
    auth: "admin",
    request: (t) => ({ path: `/admin/v1/api-keys/${t.keyId}/signing-secret` }),
    status: 201,
    budget: { db: 1, gate: 1, hops: 2 },
  },
  {
    method: "PUT",
    route: "/admin/v1/api-keys/{id}/callback-origins",
    auth: "admin",
    jsonBody: true,
    request: (t) => ({
      path: `/admin/v1/api-keys/${t.keyId}/callback-origins`,
      body: { callback_origins: ["https://app.example.test"] },
    }),
    status: 200,
    budget: { db: 1, gate: 1, hops: 2 },
  },
  {
    method: "PATCH",
    route: "/admin/v1/api-keys/{id}",
    auth: "admin",
    jsonBody: true,
    request: (t) => ({
      path: `/admin/v1/api-keys/${t.keyId}`,
      body: { abilities: ["posts"], expires_at: "2099-01-01T00:00:00Z" },
    }),
    status: 200,
    budget: { db: 1, gate: 1, hops: 2 },
  },
];
