// Bindings that exist only in tests (vitest.config.ts adds them through miniflare).
declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
    /** The second shard (src/db/shards.ts). */
    DB_SHARD_1: D1Database;
  }
}
