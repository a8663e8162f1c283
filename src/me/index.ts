// GET /api/v1/me: the key's user, its abilities and expiry, and what is left of the rate window. Any
// key may call it (no ability): it is how an integrator checks a key before anything else.
import type { ApiEnv } from "../http/env";
import { unauthenticated } from "../http/errors";
import { jsonContent } from "../http/openapi";
import { apiRoutes } from "../http/route";
import { createRouter } from "../http/router";
import { whoAmI } from "./queries";
import { meSchema } from "./schemas";

const route = apiRoutes(null);

const iso = (date: Date | null) => (date === null ? null : date.toISOString());

export const meRouter = createRouter<ApiEnv>().openapi(
  route({
    method: "get",
    operationId: "getMe",
    path: "/",
    tags: ["Me"],
    summary: "The key and its user",
    description:
      "Who the key belongs to, its abilities and expiry, the user's subscription, and the rate window this request was counted in (the same numbers as `X-RateLimit-*`). It counts like any request.",
    responses: { 200: jsonContent(meSchema, "The key, its user and the rate window.") },
  }),
  async (c) => {
    const { db, principal } = c.var;
    const [{ user, subscription, key }, window] = await Promise.all([
      whoAmI(db, principal.userId, principal.keyId),
      c.var.rateWindow(),
    ]);
    // Revoked between the gate and this read (the gate refuses it from the next request on).
    if (!user || !key) throw unauthenticated();
    return c.json(
      {
        user,
        subscription,
        key: {
          id: principal.keyId,
          name: key.name,
          prefix: key.prefix,
          abilities: principal.abilities,
          expires_at: iso(principal.expiresAt),
          created_at: key.createdAt.toISOString(),
          has_signing_secret: principal.signingSecretEnc !== null,
        },
        rate_limit: {
          limit: window.limit,
          remaining: window.remaining,
          reset_at: new Date(window.resetAt).toISOString(),
        },
      },
      200,
    );
  },
);
