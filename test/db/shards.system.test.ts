// The shard rules (src/db/shards.ts): which shard an id and a key name, which bindings are shards, where
// new users go, and the sequences that give each shard its id range.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import {
  keyPrefixOf,
  MAX_SHARDS,
  newUserShard,
  SHARD_ID_SPAN,
  shardBindings,
  shardDatabases,
  shardOfId,
  shardOfKey,
  shardSequenceStatements,
} from "../../src/db/shards";

const fakeD1 = (name: string) => ({ name }) as unknown as D1Database;
const envWith = (bindings: Record<string, unknown>) => ({ ...bindings }) as unknown as Env;

describe("shardOfId", () => {
  it("names the shard whose range holds the id", () => {
    expect(shardOfId(1)).toBe(0);
    expect(shardOfId(SHARD_ID_SPAN - 1)).toBe(0);
    expect(shardOfId(SHARD_ID_SPAN)).toBe(1);
    expect(shardOfId(3 * SHARD_ID_SPAN + 42)).toBe(3);
    expect(shardOfId(Number.MAX_SAFE_INTEGER)).toBe(MAX_SHARDS - 1);
  });
});

describe("shardOfKey and keyPrefixOf", () => {
  it("reads the shard a key was minted in, and mints the same prefix", () => {
    expect(shardOfKey("spk_abc")).toBe(0);
    expect(shardOfKey("spk1_abc")).toBe(1);
    expect(shardOfKey("spk8191_abc")).toBe(8191);
    for (const shard of [0, 1, 17, 8191]) expect(shardOfKey(`${keyPrefixOf(shard)}x`)).toBe(shard);
  });

  it("refuses anything that is not a key of a possible shard", () => {
    for (const token of [
      "",
      "spk",
      "spk1",
      "spk01_abc",
      "spk0_abc",
      "spk8192_abc",
      "spk12345_a",
      "sps_abc",
      "xspk_abc",
    ])
      expect(shardOfKey(token)).toBeNull();
  });
});

describe("shardBindings and newUserShard", () => {
  it("takes DB, then DB_SHARD_1, DB_SHARD_2 … up to the first gap", () => {
    const [db, one, two, four] = ["db", "one", "two", "four"].map(fakeD1);
    expect(shardBindings(envWith({ DB: db }))).toEqual([db]);
    expect(shardBindings(envWith({ DB: db, DB_SHARD_1: one, DB_SHARD_2: two, DB_SHARD_4: four }))).toEqual([
      db,
      one,
      two,
    ]);
    expect(shardBindings(envWith({ DB: db, DB_SHARD_2: two }))).toEqual([db]);
    // This test run binds two.
    expect(shardBindings(env)).toEqual([env.DB, env.DB_SHARD_1]);
  });

  it("places new users in NEW_USER_SHARD, and reports a value naming no bound shard", () => {
    const bound = { DB: fakeD1("db"), DB_SHARD_1: fakeD1("one") };
    expect(newUserShard(envWith(bound))).toBe(0);
    expect(newUserShard(envWith({ ...bound, NEW_USER_SHARD: "" }))).toBe(0);
    expect(newUserShard(envWith({ ...bound, NEW_USER_SHARD: " 1 " }))).toBe(1);
    for (const value of ["2", "-1", "1.5", "one"])
      expect(() => newUserShard(envWith({ ...bound, NEW_USER_SHARD: value }))).toThrow(/NEW_USER_SHARD/);
  });
});

describe("shardDatabases", () => {
  it("opens each shard once, routes ids by range, and looks ids beyond every shard up in shard 0", () => {
    const opened: string[] = [];
    const shards = shardDatabases(envWith({ DB: fakeD1("db"), DB_SHARD_1: fakeD1("one") }), (d1, shard) => {
      opened.push(`${(d1 as unknown as { name: string }).name}@${shard}`);
      return { shard } as never;
    });
    expect(shards.count).toBe(2);
    expect(shards.of(5)).toEqual({ shard: 0 });
    expect(shards.of(SHARD_ID_SPAN + 5)).toEqual({ shard: 1 });
    expect(shards.of(7 * SHARD_ID_SPAN)).toEqual({ shard: 0 });
    expect(shards.all()).toEqual([{ shard: 0 }, { shard: 1 }]);
    expect(shards.others(1)).toEqual([{ shard: 0 }]);
    expect(shards.others(0)).toEqual([{ shard: 1 }]);
    expect(opened).toEqual(["db@0", "one@1"]);
  });
});

describe("shardSequenceStatements", () => {
  it("moves every id sequence of a shard to its range, idempotently, and never backwards", async () => {
    const db = createDb(env.DB_SHARD_1);
    expect(shardSequenceStatements(db, 0)).toEqual([]);
    const statements = shardSequenceStatements(db, 1);
    await db.batch(statements as [never]);
    await db.batch(shardSequenceStatements(db, 1) as [never]);
    const { results } = await env.DB_SHARD_1.prepare(
      "SELECT name, seq FROM sqlite_sequence WHERE name != 'd1_migrations'",
    ).all<{ name: string; seq: number }>();
    const names = results.map((r) => r.name).sort();
    // Every table with an id (one INSERT and one UPDATE each), and nothing else.
    expect(names).toHaveLength(statements.length / 2);
    expect(names).toEqual(
      expect.arrayContaining([
        "users",
        "api_keys",
        "workspaces",
        "posts",
        "post_platforms",
        "media",
        "comments",
      ]),
    );
    for (const { seq } of results) expect(shardOfId(seq)).toBe(1);
    expect(results.every((r) => r.seq >= SHARD_ID_SPAN)).toBe(true);
  });
});
