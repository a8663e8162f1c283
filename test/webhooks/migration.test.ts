// Migration 0012 moves every pending event into the new outbox before it drops the old places: the
// migrations are replayed, in order and statement by statement as the test setup applies them to D1, on
// the empty SQLite database of a fresh Durable Object (the engine local D1 runs on), with old-style rows
// written between 0011 and 0012.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

const MIGRATION = "0012_events_outbox.sql";

describe(`migration ${MIGRATION}`, () => {
  it("keeps every pending post settlement and account expiry, then drops the old outboxes", async () => {
    const migrations = env.TEST_MIGRATIONS;
    const at = migrations.findIndex((m) => m.name === MIGRATION);
    expect(at).toBeGreaterThan(0);
    const stub = env.COORDINATOR.getByName(`migration-test-${crypto.randomUUID()}`);
    const result = await runInDurableObject(stub, (_instance, state) => {
      const { sql } = state.storage;
      const apply = (index: number) => {
        for (const query of migrations[index]!.queries) sql.exec(query);
      };
      for (let i = 0; i < at; i++) apply(i);

      // The state 0011 left: a user, a workspace, posts and accounts.
      sql.exec("INSERT INTO users (id, name, email) VALUES (1, 'U', 'u@example.test')");
      sql.exec("INSERT INTO workspaces (id, name, slug) VALUES (1, 'W', 'w')");
      for (const id of [10, 11, 12, 13])
        sql.exec("INSERT INTO posts (id, workspace_id, user_id, content) VALUES (?, 1, 1, '[]')", id);
      const account = (id: number, expiredAt: number | null, eventAt: number | null) =>
        sql.exec(
          `INSERT INTO accounts (id, workspace_id, platform, username, name, expired_at, expiry_event_at)
           VALUES (?, 1, 'twitter', ?, 'A', ?, ?)`,
          id,
          `a${id}`,
          expiredAt,
          eventAt,
        );
      account(20, 1_700_000_000_123, 1_700_000_000_123); // expired, not told yet
      account(21, 1_700_000_000_456, null); // expired and told
      account(22, null, null); // working
      // Settlements not told yet: published, failed, a repeat's occurrence (back to SCHEDULED).
      const settlement = (postId: number, when: number, status: string) =>
        sql.exec("INSERT INTO webhook_outbox (post_id, at, status) VALUES (?, ?, ?)", postId, when, status);
      settlement(10, 1_700_000_001_000, "PUBLISHED");
      settlement(11, 1_700_000_002_000, "FAILED");
      settlement(12, 1_700_000_003_000, "SCHEDULED");
      settlement(10, 1_700_000_004_000, "FAILED"); // the same post, settled again later

      apply(at);
      const outbox = sql
        .exec("SELECT type, record_id, version, typeof(version) AS kind, created_at FROM outbox")
        .toArray();
      const oldTable = sql.exec("SELECT name FROM sqlite_master WHERE name = 'webhook_outbox'").toArray();
      const columns = sql
        .exec("SELECT name FROM pragma_table_info('accounts')")
        .toArray()
        .map((c) => c.name);
      return { outbox, oldTable, columns };
    });

    const sorted = [...result.outbox].sort((a, b) => Number(a.created_at) - Number(b.created_at));
    expect(sorted).toEqual([
      {
        type: "account.expired",
        record_id: 20,
        version: "1700000000123",
        kind: "text",
        created_at: 1_700_000_000_123,
      },
      {
        type: "post.published",
        record_id: 10,
        version: "1700000001000",
        kind: "text",
        created_at: 1_700_000_001_000,
      },
      {
        type: "post.failed",
        record_id: 11,
        version: "1700000002000",
        kind: "text",
        created_at: 1_700_000_002_000,
      },
      {
        type: "post.published",
        record_id: 12,
        version: "1700000003000",
        kind: "text",
        created_at: 1_700_000_003_000,
      },
      {
        type: "post.failed",
        record_id: 10,
        version: "1700000004000",
        kind: "text",
        created_at: 1_700_000_004_000,
      },
    ]);
    expect(result.oldTable).toEqual([]);
    expect(result.columns).toContain("expired_at");
    expect(result.columns).not.toContain("expiry_event_at");
  });
});
