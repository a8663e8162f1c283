// The bulk import routes' contracts (test/support/contract.ts): upload, read back, the problems CSV and
// commit, each on an import of the tenant's own workspace made fresh for the check.
import { expect } from "vitest";
import { call } from "../support/client";
import type { RouteContract, Tenant } from "../support/contract";

const body = (t: Tenant) => ({
  workspace_id: t.workspace.id,
  posts: [
    { accounts: [t.accounts[0]!.id], content: [{ text: "Imported" }] },
    { accounts: [t.accounts[0]!.id], content: [{ text: "" }] },
  ],
});

/** A validated import of two rows, one of them invalid. */
const uploaded = async (t: Tenant) => {
  const res = await call("POST", "/api/v1/imports", { key: t.key, body: body(t) });
  expect(res.status).toBe(201);
  return res.body.id as string;
};

const imports = { auth: "api", ability: "posts" } as const;

export const importsContracts: RouteContract[] = [
  {
    ...imports,
    jsonBody: true,
    method: "POST",
    route: "/api/v1/imports",
    request: (t) => ({ path: "/api/v1/imports", body: body(t) }),
    foreign: (victim) => ({ path: "/api/v1/imports", body: body(victim) }),
    status: 201,
    budget: { db: 3, gate: 1, hops: 4 },
  },
  {
    ...imports,
    method: "GET",
    route: "/api/v1/imports/{id}",
    request: async (t) => ({ path: `/api/v1/imports/${await uploaded(t)}` }),
    foreign: async (victim) => ({ path: `/api/v1/imports/${await uploaded(victim)}` }),
    status: 200,
    budget: { db: 1, gate: 1, hops: 2 },
  },
  {
    ...imports,
    method: "GET",
    route: "/api/v1/imports/{id}/problems.csv",
    request: async (t) => ({ path: `/api/v1/imports/${await uploaded(t)}/problems.csv` }),
    foreign: async (victim) => ({ path: `/api/v1/imports/${await uploaded(victim)}/problems.csv` }),
    status: 200,
    answers: "text/csv",
    budget: { db: 1, gate: 1, hops: 2 },
  },
  {
    ...imports,
    method: "POST",
    route: "/api/v1/imports/{id}/commit",
    request: async (t) => ({ path: `/api/v1/imports/${await uploaded(t)}/commit` }),
    foreign: async (victim) => ({ path: `/api/v1/imports/${await uploaded(victim)}/commit` }),
    status: 200,
    budget: { db: 8, gate: 1, hops: 9 },
  },
];
