// The approvals routes' contracts (test/support/contract.ts): the workspace policy, approve, reject, the
// review history and review links. Each decision is made on a post waiting for approval, created fresh
// for the check in a workspace that requires it.
import { expect } from "vitest";
import { call } from "../support/client";
import type { RouteContract, Tenant } from "../support/contract";
import { inMinutes } from "../support/seed";

const requireApproval = async (t: Tenant) => {
  const res = await call("PATCH", `/api/v1/workspaces/${t.workspace.id}`, {
    key: t.key,
    body: { approval: "required" },
  });
  expect(res.status).toBe(200);
};

const pending = async (t: Tenant) => {
  const res = await call("POST", "/api/v1/posts", {
    key: t.key,
    body: {
      workspace_id: t.workspace.id,
      accounts: [t.accounts[0]!.id],
      content: [{ text: "For review" }],
      scheduled_at: inMinutes(60),
    },
  });
  expect(res.body.status).toBe("PENDING_APPROVAL");
  return res.body.id as number;
};

const approvals = { auth: "api", ability: "approvals", setup: requireApproval, jsonBody: true } as const;

export const approvalsContracts: RouteContract[] = [
  {
    auth: "api",
    ability: "workspaces",
    jsonBody: true,
    method: "PATCH",
    route: "/api/v1/workspaces/{id}",
    request: (t) => ({ path: `/api/v1/workspaces/${t.workspace.id}`, body: { approval: "required" } }),
    foreign: (victim) => ({ path: `/api/v1/workspaces/${victim.workspace.id}`, body: { approval: "none" } }),
    status: 200,
    budget: { db: 1, gate: 1, hops: 2 },
  },
  {
    ...approvals,
    method: "POST",
    route: "/api/v1/posts/{id}/approve",
    request: async (t) => ({ path: `/api/v1/posts/${await pending(t)}/approve`, body: { version: 1 } }),
    foreign: async (victim) => ({
      path: `/api/v1/posts/${await pending(victim)}/approve`,
      body: { version: 1 },
    }),
    status: 200,
    budget: { db: 1, gate: 1, hops: 3 },
  },
  {
    ...approvals,
    method: "POST",
    route: "/api/v1/posts/{id}/reject",
    request: async (t) => ({
      path: `/api/v1/posts/${await pending(t)}/reject`,
      body: { version: 1, reason: "Not yet" },
    }),
    foreign: async (victim) => ({
      path: `/api/v1/posts/${await pending(victim)}/reject`,
      body: { version: 1, reason: "Not yet" },
    }),
    status: 200,
    budget: { db: 1, gate: 1, hops: 2 },
  },
  {
    auth: "api",
    ability: "posts",
    setup: requireApproval,
    method: "GET",
    route: "/api/v1/posts/{id}/reviews",
    request: async (t) => ({ path: `/api/v1/posts/${await pending(t)}/reviews` }),
    foreign: async (victim) => ({ path: `/api/v1/posts/${await pending(victim)}/reviews` }),
    status: 200,
    budget: { db: 1, gate: 1, hops: 1 },
  },
  {
    ...approvals,
    method: "POST",
    route: "/api/v1/posts/{id}/review-links",
    request: async (t) => ({
      path: `/api/v1/posts/${await pending(t)}/review-links`,
      body: { label: "Client" },
    }),
    foreign: async (victim) => ({ path: `/api/v1/posts/${await pending(victim)}/review-links`, body: {} }),
    status: 201,
    budget: { db: 1, gate: 1, hops: 2 },
  },
];
