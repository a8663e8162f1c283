// 60 requests per fixed minute per user, counted in the user's Coordinator Durable Object.
import { createMiddleware } from "hono/factory";
import { userCoordinator } from "../coordinator";
import type { ApiEnv } from "./env";
import { tooManyAttempts } from "./errors";

export const RATE_LIMIT = 60;
export const RATE_WINDOW_MS = 60_000;

export const rateLimit = createMiddleware<ApiEnv>(async (c, next) => {
  const coordinator = c.env.COORDINATOR.getByName(userCoordinator(c.var.principal.userId));
  const { keyId } = c.var.principal;
  const decision = await c.var.meter.gate(() =>
    coordinator.hit(RATE_LIMIT, RATE_WINDOW_MS, Date.now(), keyId),
  );
  const headers: Record<string, string> = {
    "X-RateLimit-Limit": String(decision.limit),
    "X-RateLimit-Remaining": String(decision.remaining),
  };
  if (!decision.allowed) {
    const retryAfter = Math.max(1, Math.ceil((decision.resetAt - Date.now()) / 1000));
    throw tooManyAttempts({
      ...headers,
      "Retry-After": String(retryAfter),
      "X-RateLimit-Reset": String(Math.ceil(decision.resetAt / 1000)),
    });
  }
  await next();
  for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
});
