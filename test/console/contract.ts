// The route contract of the console's one operator route: the invitation link.
import type { RouteContract } from "../support/contract";

export const consoleContracts: RouteContract[] = [
  {
    method: "POST",
    route: "/admin/v1/users/{id}/sign-in-links",
    auth: "admin",
    request: (t) => ({ path: `/admin/v1/users/${t.user.id}/sign-in-links` }),
    status: 201,
    budget: { db: 2, gate: 0, hops: 2 },
  },
];
