import type { RouteContract } from "../support/contract";

export const workspacesContracts: RouteContract[] = [
  {
    method: "GET",
    route: "/api/v1/workspaces",
    auth: "api",
    ability: "workspaces",
    request: () => ({ path: "/api/v1/workspaces" }),
    status: 200,
    budget: { db: 1, gate: 1, hops: 1 },
  },
];
