// Every route the OpenAPI document declares passes the shared route contract (test/support/contract.ts),
// with live keys and with test keys.
// Each resource's folder lists its routes' contracts; this file runs them all and checks that none is
// missing.
import { describe, expect, it } from "vitest";
import { CONTRACTS } from "./contracts";
import { ADMIN_TOKEN, call } from "./support/client";
import { documentedRoutes, routeContract } from "./support/contract";
import { createTenant } from "./support/seed";

// Once per mode, in the one shared runtime. The test pass runs, for the API key routes, what depends on
// the tenant's data: the success within its budget, and the other mode's key on every `{id}` route (the
// live pass runs the reverse); every route's checks side by side, since each makes its own tenants.
describe("live keys", () => {
  for (const contract of CONTRACTS) routeContract(contract, 0, "live");
});
describe.concurrent("test keys", () => {
  for (const contract of CONTRACTS) if (contract.auth === "api") routeContract(contract, 0, "test");
});

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

describe("a method a documented path does not serve", () => {
  it("is a 405 listing the path's methods, in Allow too", async () => {
    const t = await createTenant();
    const served = new Map<string, Set<string>>();
    for (const [method, path] of documentedRoutes().map((route) => route.split(" ") as [string, string]))
      served.set(path, (served.get(path) ?? new Set()).add(method));
    const order = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"];
    const answers = await Promise.all(
      [...served].map(async ([path, methods]) => {
        const method = ["PATCH", "PUT", "DELETE", "POST"].find((m) => !methods.has(m))!;
        const key = path.startsWith("/admin/") ? ADMIN_TOKEN : path.startsWith("/api/v1/") ? t.key : null;
        const concrete = path.replaceAll(/\{[^}]+\}/g, "1");
        const res = await call(method, concrete, { key });
        // Every documented path the concrete one matches (`/accounts/connect` is also `/accounts/{id}`).
        const all = new Set(
          [...served]
            .filter(([other]) => new RegExp(`^${other.replaceAll(/\{[^}]+\}/g, "[^/]+")}$`).test(concrete))
            .flatMap(([, m]) => [...m]),
        );
        const allow = order.filter((m) => all.has(m) || (m === "HEAD" && all.has("GET"))).join(", ");
        return {
          route: `${method} ${path}`,
          status: res.status,
          allow: res.headers.get("allow"),
          expected: allow,
          body: res.body,
        };
      }),
    );
    for (const answer of answers) {
      expect([answer.route, answer.status, answer.allow]).toEqual([answer.route, 405, answer.expected]);
      expect(answer.body.message).toMatch(
        /^The [A-Z]+ method is not supported for route .+\. Supported methods: /,
      );
    }
  });
});
