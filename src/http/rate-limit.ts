// 60 requests per fixed minute per user, counted in the user's Gate Durable Object.
import { createMiddleware } from "hono/factory";
import { ApiError } from "./errors";
import type { AppEnv } from "./types";

export const RATE_LIMIT = 60;
export const RATE_WINDOW_MS = 60_000;

export const rateLimit = createMiddleware<AppEnv>(async (c, next) => {
  const { userId } = c.var.principal;
  const gate = c.env.GATE.getByName(`user:${userId}`);
  const decision = await c.var.meter.gate(() => gate.hit(RATE_LIMIT, RATE_WINDOW_MS));
  const headers: Record<string, string> = {
    "X-RateLimit-Limit": String(decision.limit),
    "X-RateLimit-Remaining": String(decision.remaining),
  };
  if (!decision.allowed) {
    const retryAfter = Math.max(1, Math.ceil((decision.resetAt - Date.now()) / 1000));
    throw new ApiError(
      429,
      { message: "Too Many Attempts." },
      {
        ...headers,
        "Retry-After": String(retryAfter),
        "X-RateLimit-Reset": String(Math.ceil(decision.resetAt / 1000)),
      },
    );
  }
  await next();
  for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
});
