import type { RouteContract } from "../support/contract";

export const meContracts: RouteContract[] = [
  {
    method: "GET",
    route: "/api/v1/me",
    auth: "api",
    ability: null,
    request: () => ({ path: "/api/v1/me" }),
    status: 200,
    budget: { db: 1, gate: 1, hops: 1 },
  },
];
