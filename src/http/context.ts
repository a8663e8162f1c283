// The first middleware of every route that reads data: a request-scoped meter, metered databases on D1
// sessions (one per shard the request opens, src/db/shards.ts), and the headers that report what the
// request spent and how fresh its reads were.
//
// D1 Sessions: a safe request (GET/HEAD) reads from the nearest replica ("first-unconstrained"),
// unless it sends back the bookmark of an earlier answer (BOOKMARK_HEADER), which makes it read data
// at least that fresh: a client that wrote and then reads sees its write. Other methods go to the
// primary. An answer that opened one shard carries that session's latest bookmark, prefixed `<shard>:`
// past shard 0, and a bookmark sent back constrains only the shard it came from. Under `wrangler dev`
// there is one copy, and the same code runs.
import { createMiddleware } from "hono/factory";
import { createDb } from "../db/client";
import { MAX_SHARDS, shardDatabases } from "../db/shards";
import type { DbEnv } from "./env";
import { badRequest } from "./errors";
import { Meter, meteredD1 } from "./meter";

export const BOOKMARK_HEADER = "X-D1-Bookmark";

/** D1's bookmark format, after an optional shard; anything else is refused before it reaches D1. */
const BOOKMARK = /^(?:([1-9]\d{0,3}):)?([0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32})$/;

const SAFE_METHODS = new Set(["GET", "HEAD"]);

function sentBookmark(header: string | undefined): { shard: number; bookmark: string } | null {
  const sent = header?.trim();
  if (sent === undefined || sent === "") return null;
  const match = BOOKMARK.exec(sent);
  const shard = Number(match?.[1] ?? 0);
  if (!match || shard >= MAX_SHARDS)
    throw badRequest(`The ${BOOKMARK_HEADER} header must be a bookmark from an earlier answer.`);
  return { shard, bookmark: match[2]! };
}

export const requestContext = createMiddleware<DbEnv>(async (c, next) => {
  const meter = new Meter();
  c.set("meter", meter);
  const sent = sentBookmark(c.req.header(BOOKMARK_HEADER));
  const fresh = SAFE_METHODS.has(c.req.method) ? "first-unconstrained" : "first-primary";
  const sessions: { shard: number; session: D1DatabaseSession }[] = [];
  c.set(
    "shards",
    shardDatabases(c.env, (d1, shard) => {
      const session = d1.withSession(sent?.shard === shard ? sent.bookmark : fresh);
      sessions.push({ shard, session });
      // drizzle needs only prepare and batch, which a session has.
      return createDb(meteredD1(session, meter) as unknown as D1Database);
    }),
  );
  await next();
  c.res.headers.set("Server-Timing", meter.header());
  const [only, ...others] = sessions;
  const bookmark = others.length === 0 ? only?.session.getBookmark() : null;
  if (only && bookmark)
    c.res.headers.set(BOOKMARK_HEADER, only.shard ? `${only.shard}:${bookmark}` : bookmark);
});
