// Every route the OpenAPI document declares passes the shared route contract (test/support/contract.ts).
// Each resource's folder lists its routes' contracts; this file runs them all and checks that none is
// missing.
import { describe, expect, it } from "vitest";
import { accountsContracts } from "./accounts/contract";
import { adminContracts } from "./admin/contract";
import { delegationContracts } from "./delegation/contract";
import { foldersContracts } from "./folders/contract";
import { labelsContracts } from "./labels/contract";
import { documentedRoutes, type RouteContract, routeContract } from "./support/contract";
import { workspacesContracts } from "./workspaces/contract";

const CONTRACTS: RouteContract[] = [
  ...workspacesContracts,
  ...accountsContracts,
  ...labelsContracts,
  ...foldersContracts,
  ...delegationContracts,
  ...adminContracts,
];

for (const contract of CONTRACTS) routeContract(contract);

describe("the route contract covers the API", () => {
  it("has a contract for every documented route", () => {
    const covered = new Set(CONTRACTS.map((c) => `${c.method} ${c.route}`));
    const missing = documentedRoutes().filter((route) => !covered.has(route));
    expect(missing).toEqual([]);
  });
});
