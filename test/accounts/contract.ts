import type { RouteContract } from "../support/contract";

export const accountsContracts: RouteContract[] = [
  {
    method: "GET",
    route: "/api/v1/accounts",
    auth: "api",
    ability: "accounts",
    request: () => ({ path: "/api/v1/accounts" }),
    status: 200,
    budget: { db: 2, gate: 1 },
  },
];
