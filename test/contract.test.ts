// Every route the OpenAPI document declares passes the shared route contract (test/support/contract.ts).
// Each resource's folder lists its routes' contracts; this file runs them all and checks that none is
// missing.
import { describe, expect, it } from "vitest";
import { CONTRACTS } from "./contracts";
import { documentedRoutes, routeContract } from "./support/contract";

for (const contract of CONTRACTS) routeContract(contract);

// The signed media link has no credential but its signature; test/media/links.test.ts checks each of its
// answers against the document.
const PUBLIC_ROUTES = new Set(["GET /media/{id}"]);

describe("the route contract covers the API", () => {
  it("has a contract for every documented route", () => {
    const covered = new Set([...CONTRACTS.map((c) => `${c.method} ${c.route}`), ...PUBLIC_ROUTES]);
    const missing = documentedRoutes().filter((route) => !covered.has(route));
    expect(missing).toEqual([]);
  });
});
