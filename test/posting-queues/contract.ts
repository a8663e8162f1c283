import { call } from "../support/client";
import type { RouteContract, Tenant } from "../support/contract";

const SLOTS = {
  slots: [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, time: "09:00" })),
  timezone: "Europe/Paris",
};

const withQueue = async (t: Tenant) => {
  await call("PUT", `/api/v1/accounts/${t.accounts[0]!.id}/queue`, { key: t.key, body: SLOTS });
};

const api = { auth: "api", ability: "posts" } as const;

export const postingQueuesContracts: RouteContract[] = [
  {
    ...api,
    method: "GET",
    route: "/api/v1/accounts/{id}/queue",
    setup: withQueue,
    request: (t) => ({ path: `/api/v1/accounts/${t.accounts[0]!.id}/queue` }),
    foreign: (victim) => ({ path: `/api/v1/accounts/${victim.accounts[0]!.id}/queue` }),
    status: 200,
    budget: { db: 1, gate: 1, hops: 1 },
  },
  {
    ...api,
    method: "PUT",
    route: "/api/v1/accounts/{id}/queue",
    jsonBody: true,
    request: (t) => ({ path: `/api/v1/accounts/${t.accounts[0]!.id}/queue`, body: SLOTS }),
    foreign: (victim) => ({ path: `/api/v1/accounts/${victim.accounts[0]!.id}/queue`, body: SLOTS }),
    status: 200,
    budget: { db: 1, gate: 1, hops: 2 },
  },
  {
    ...api,
    method: "DELETE",
    route: "/api/v1/accounts/{id}/queue",
    setup: withQueue,
    request: (t) => ({ path: `/api/v1/accounts/${t.accounts[0]!.id}/queue` }),
    foreign: (victim) => ({ path: `/api/v1/accounts/${victim.accounts[0]!.id}/queue` }),
    status: 200,
    budget: { db: 1, gate: 1, hops: 2 },
  },
  {
    ...api,
    method: "GET",
    route: "/api/v1/accounts/{id}/queue/slots",
    setup: withQueue,
    request: (t) => ({ path: `/api/v1/accounts/${t.accounts[0]!.id}/queue/slots?count=100` }),
    foreign: (victim) => ({ path: `/api/v1/accounts/${victim.accounts[0]!.id}/queue/slots` }),
    status: 200,
    budget: { db: 1, gate: 1, hops: 1 },
  },
  {
    ...api,
    method: "GET",
    route: "/api/v1/workspaces/{id}/queue",
    request: (t) => ({ path: `/api/v1/workspaces/${t.workspace.id}/queue` }),
    foreign: (victim) => ({ path: `/api/v1/workspaces/${victim.workspace.id}/queue` }),
    status: 200,
    budget: { db: 1, gate: 1, hops: 1 },
  },
  {
    ...api,
    method: "PUT",
    route: "/api/v1/workspaces/{id}/queue",
    jsonBody: true,
    request: (t) => ({ path: `/api/v1/workspaces/${t.workspace.id}/queue`, body: SLOTS }),
    foreign: (victim) => ({ path: `/api/v1/workspaces/${victim.workspace.id}/queue`, body: SLOTS }),
    status: 200,
    budget: { db: 1, gate: 1, hops: 2 },
  },
];
