import type { RouteContract } from "../support/contract";

export const accountsContracts: RouteContract[] = [
  {
    method: "GET",
    route: "/api/v1/accounts",
    auth: "api",
    ability: "accounts",
    request: () => ({ path: "/api/v1/accounts" }),
    status: 200,
    budget: { db: 1, gate: 1, hops: 1 },
  },
  {
    method: "POST",
    route: "/api/v1/accounts/connect",
    auth: "api",
    ability: "accounts",
    jsonBody: true,
    request: (t) => ({
      path: "/api/v1/accounts/connect",
      body: {
        workspace_id: t.workspace.id,
        platform: "twitter",
        redirect_url: "https://app.example.test/accounts/done",
      },
    }),
    status: 201,
    foreign: (victim) => ({
      path: "/api/v1/accounts/connect",
      body: {
        workspace_id: victim.workspace.id,
        platform: "twitter",
        redirect_url: "https://app.example.test/accounts/done",
      },
    }),
    // The key lookup and the workspace; the rate limit and the flow's Coordinator.
    budget: { db: 1, gate: 1, hops: 2 },
  },
  {
    method: "GET",
    route: "/api/v1/accounts/{id}",
    auth: "api",
    ability: "accounts",
    request: (t) => ({ path: `/api/v1/accounts/${t.accounts[0]!.id}` }),
    status: 200,
    foreign: (victim) => ({ path: `/api/v1/accounts/${victim.accounts[0]!.id}` }),
    budget: { db: 1, gate: 1, hops: 1 },
  },
  {
    method: "POST",
    route: "/api/v1/accounts/{id}/reconnect",
    auth: "api",
    ability: "accounts",
    jsonBody: true,
    request: (t) => ({
      path: `/api/v1/accounts/${t.accounts[0]!.id}/reconnect`,
      body: { redirect_url: "https://app.example.test/accounts/done" },
    }),
    status: 201,
    foreign: (victim) => ({
      path: `/api/v1/accounts/${victim.accounts[0]!.id}/reconnect`,
      body: { redirect_url: "https://app.example.test/accounts/done" },
    }),
    // The key lookup and the account; the rate limit and the flow's Coordinator.
    budget: { db: 1, gate: 1, hops: 2 },
  },
  {
    method: "DELETE",
    route: "/api/v1/accounts/{id}",
    auth: "api",
    ability: "accounts",
    request: (t) => ({ path: `/api/v1/accounts/${t.accounts[0]!.id}` }),
    status: 200,
    foreign: (victim) => ({ path: `/api/v1/accounts/${victim.accounts[0]!.id}` }),
    // The key lookup and one batch (cancel its scheduled rows, delete it).
    budget: { db: 1, gate: 1, hops: 2 },
  },
];
