// The first middleware of every route that reads data: a request-scoped meter, a metered database,
// and the Server-Timing header that reports what the request spent.
import { createMiddleware } from "hono/factory";
import { createDb } from "../db/client";
import type { DbEnv } from "./env";
import { Meter, meteredD1 } from "./meter";

export const requestContext = createMiddleware<DbEnv>(async (c, next) => {
  const meter = new Meter();
  c.set("meter", meter);
  c.set("db", createDb(meteredD1(c.env.DB, meter)));
  await next();
  c.res.headers.set("Server-Timing", meter.header());
});
