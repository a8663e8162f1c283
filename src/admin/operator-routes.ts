// How an operator route (/admin/v1) is declared: tagged "Operator", documented with the adminToken
// scheme, and gated by the operator token before anything else runs (validation included).
import { createMiddleware } from "hono/factory";
import { bearerToken } from "../http/auth";
import type { DbEnv } from "../http/env";
import { routeNotFound, unauthenticated } from "../http/errors";
import { publicRoute } from "../http/route";
import { secretEquals } from "../lib/crypto";

/** Absent ADMIN_TOKEN: the operator API does not exist (404). Missing or wrong token: 401. */
export const adminOnly = createMiddleware<DbEnv>(async (c, next) => {
  const expected = c.env.ADMIN_TOKEN;
  if (!expected) throw routeNotFound();
  const given = bearerToken(c.req.header("authorization"));
  if (!given || !(await secretEquals(given, expected))) throw unauthenticated();
  await next();
});

type Spec = Omit<Parameters<typeof publicRoute>[0], "security" | "tags">;

/** A publicRoute behind the operator gate; every one can answer 401 and (no ADMIN_TOKEN) 404. */
export const operatorRoute = <const R extends Spec>(spec: R) =>
  publicRoute({
    ...spec,
    tags: ["Operator"],
    audience: "operator",
    security: [{ adminToken: [] }],
    middleware: adminOnly,
    errors: [401, 404, ...(spec.errors ?? [])],
  });
