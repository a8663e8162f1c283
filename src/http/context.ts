// The first middleware of every route that reads data: a request-scoped meter, a metered database on a
// D1 session, and the headers that report what the request spent and how fresh its reads were.
//
// D1 Sessions: a safe request (GET/HEAD) reads from the nearest replica ("first-unconstrained"),
// unless it sends back the bookmark of an earlier answer (BOOKMARK_HEADER), which makes it read data
// at least that fresh: a client that wrote and then reads sees its write. Other methods go to the
// primary. Every answer carries the session's latest bookmark. Under `wrangler dev` there is one copy,
// and the same code runs.
import { createMiddleware } from "hono/factory";
import { createDb } from "../db/client";
import type { DbEnv } from "./env";
import { badRequest } from "./errors";
import { Meter, meteredD1 } from "./meter";

export const BOOKMARK_HEADER = "X-D1-Bookmark";

/** D1's bookmark format; anything else is refused before it reaches D1. */
const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;

const SAFE_METHODS = new Set(["GET", "HEAD"]);

export const requestContext = createMiddleware<DbEnv>(async (c, next) => {
  const meter = new Meter();
  c.set("meter", meter);
  const sent = c.req.header(BOOKMARK_HEADER)?.trim();
  if (sent !== undefined && sent !== "" && !BOOKMARK.test(sent))
    throw badRequest(`The ${BOOKMARK_HEADER} header must be a bookmark from an earlier answer.`);
  const constraint = sent || (SAFE_METHODS.has(c.req.method) ? "first-unconstrained" : "first-primary");
  const session = c.env.DB.withSession(constraint);
  // drizzle needs only prepare and batch, which a session has.
  c.set("db", createDb(meteredD1(session, meter) as unknown as D1Database));
  await next();
  c.res.headers.set("Server-Timing", meter.header());
  const bookmark = session.getBookmark();
  if (bookmark) c.res.headers.set(BOOKMARK_HEADER, bookmark);
});
