import type { RouteContract } from "../support/contract";

export const foldersContracts: RouteContract[] = [
  {
    method: "GET",
    route: "/api/v1/folders",
    auth: "api",
    ability: "posts",
    request: (t) => ({ path: `/api/v1/folders?workspace_id=${t.workspace.id}` }),
    foreign: (victim) => ({ path: `/api/v1/folders?workspace_id=${victim.workspace.id}` }),
    status: 200,
    budget: { db: 1, gate: 1, hops: 1 },
  },
  {
    method: "POST",
    route: "/api/v1/folders",
    auth: "api",
    ability: "posts",
    jsonBody: true,
    request: (t) => ({
      path: "/api/v1/folders",
      body: { workspace_id: t.workspace.id, name: "Brand assets" },
    }),
    foreign: (victim) => ({
      path: "/api/v1/folders",
      body: { workspace_id: victim.workspace.id, name: "x" },
    }),
    status: 201,
    budget: { db: 2, gate: 1, hops: 2 },
  },
];
