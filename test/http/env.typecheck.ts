// Compile-time proof of the typed router environments: `tsc -p .` (part of `npm test`) fails if a
// router can read a variable its environment does not set. Never run, only typechecked.
import type { ApiEnv, BareEnv, DbEnv } from "../../src/http/env";
import { createRouter } from "../../src/http/router";

export const bare = createRouter<BareEnv>().get("/", (c) => {
  // @ts-expect-error no database on a bare router (the sandbox, the reference page)
  void c.var.db;
  // @ts-expect-error no principal on a bare router
  void c.var.principal;
  return c.text("ok");
});

export const withDb = createRouter<DbEnv>().get("/", (c) => {
  void c.var.shards.of(1);
  // @ts-expect-error no single database before a key names its shard: the route opens the one an id names
  void c.var.db;
  // @ts-expect-error no principal before authentication (operator API, media links)
  void c.var.principal;
  return c.text("ok");
});

export const authed = createRouter<ApiEnv>().get("/", (c) => {
  void c.var.db;
  void c.var.shards;
  void c.var.principal.userId;
  return c.text("ok");
});
