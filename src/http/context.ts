// The first middleware of every route: a request-scoped meter, a metered database, Server-Timing.
import { createMiddleware } from "hono/factory";
import { createDb } from "../db/client";
import { Meter, meteredD1 } from "./meter";
import type { AppEnv } from "./types";

export const requestContext = createMiddleware<AppEnv>(async (c, next) => {
  const meter = new Meter();
  c.set("meter", meter);
  c.set("db", createDb(meteredD1(c.env.DB, meter)));
  await next();
  c.res.headers.set("Server-Timing", meter.header());
});
