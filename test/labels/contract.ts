import { call } from "../support/client";
import type { RouteContract, Tenant } from "../support/contract";

const newLabel = async (t: Tenant) => {
  const res = await call("POST", "/api/v1/labels", {
    key: t.key,
    body: { workspace_id: t.workspace.id, name: "Launch", color: "#4F46E5" },
  });
  return res.body.id as number;
};

export const labelsContracts: RouteContract[] = [
  {
    method: "GET",
    route: "/api/v1/labels",
    auth: "api",
    ability: "labels",
    request: async (t) => {
      await newLabel(t);
      return { path: `/api/v1/labels?workspace_id=${t.workspace.id}` };
    },
    foreign: (victim) => ({ path: `/api/v1/labels?workspace_id=${victim.workspace.id}` }),
    status: 200,
    budget: { db: 1, gate: 1, hops: 1 },
  },
  {
    method: "POST",
    route: "/api/v1/labels",
    auth: "api",
    ability: "labels",
    jsonBody: true,
    request: (t) => ({
      path: "/api/v1/labels",
      body: { workspace_id: t.workspace.id, name: "Launch", color: "#4F46E5" },
    }),
    foreign: (victim) => ({
      path: "/api/v1/labels",
      body: { workspace_id: victim.workspace.id, name: "x", color: "#000000" },
    }),
    status: 201,
    budget: { db: 2, gate: 1, hops: 2 },
  },
  {
    method: "PUT",
    route: "/api/v1/labels/{id}",
    auth: "api",
    ability: "labels",
    jsonBody: true,
    request: async (t) => ({
      path: `/api/v1/labels/${await newLabel(t)}`,
      body: { name: "Renamed", color: "#000000" },
    }),
    foreign: async (victim) => ({
      path: `/api/v1/labels/${await newLabel(victim)}`,
      body: { name: "pwned", color: "#000000" },
    }),
    status: 200,
    budget: { db: 1, gate: 1, hops: 2 },
  },
  {
    method: "DELETE",
    route: "/api/v1/labels/{id}",
    auth: "api",
    ability: "labels",
    request: async (t) => ({ path: `/api/v1/labels/${await newLabel(t)}` }),
    foreign: async (victim) => ({ path: `/api/v1/labels/${await newLabel(victim)}` }),
    status: 200,
    budget: { db: 1, gate: 1, hops: 2 },
  },
];
