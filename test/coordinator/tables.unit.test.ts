// The Coordinator's tables are looked for and created once per instance (src/coordinator/tables.ts):
// a user's every request would otherwise run two `CREATE TABLE IF NOT EXISTS` and a `sqlite_master` read.
import { describe, expect, it } from "vitest";
import { ensureTable, forgetTables, hasTable } from "../../src/coordinator/tables";

/** Enough of SqlStorage for tables.ts: tables made by CREATE, found through sqlite_master; every statement counted. */
function fakeSql() {
  const tables = new Set<string>();
  const statements: string[] = [];
  const sql = {
    exec(query: string, ...bindings: unknown[]) {
      statements.push(query);
      const created = /CREATE TABLE IF NOT EXISTS (\w+)/.exec(query)?.[1];
      if (created) tables.add(created);
      const rows = query.includes("sqlite_master") && tables.has(String(bindings[0])) ? [{ 1: 1 }] : [];
      return { toArray: () => rows };
    },
  };
  return { sql: sql as unknown as SqlStorage, tables, statements };
}

describe("the Coordinator's tables", () => {
  it("are created once per instance, and known to exist from then on without a look", () => {
    const { sql, statements } = fakeSql();
    expect(hasTable(sql, "rate_window")).toBe(false);
    for (let i = 0; i < 3; i++)
      ensureTable(sql, "rate_window", "CREATE TABLE IF NOT EXISTS rate_window (id)");
    expect(hasTable(sql, "rate_window")).toBe(true);
    expect(statements).toEqual([
      "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
      "CREATE TABLE IF NOT EXISTS rate_window (id)",
    ]);
  });

  it("a table found once is not looked for again; a missing one is, each time", () => {
    const { sql, statements, tables } = fakeSql();
    expect(hasTable(sql, "key_state")).toBe(false);
    expect(hasTable(sql, "key_state")).toBe(false);
    tables.add("key_state"); // made by another path (its own CREATE)
    expect(hasTable(sql, "key_state")).toBe(true);
    expect(hasTable(sql, "key_state")).toBe(true);
    expect(statements).toHaveLength(3);
  });

  it("are forgotten with the storage, and created again", () => {
    const { sql, statements, tables } = fakeSql();
    ensureTable(sql, "delegation_flow", "CREATE TABLE IF NOT EXISTS delegation_flow (id)");
    tables.clear(); // deleteAll
    forgetTables(sql);
    expect(hasTable(sql, "delegation_flow")).toBe(false);
    ensureTable(sql, "delegation_flow", "CREATE TABLE IF NOT EXISTS delegation_flow (id)");
    expect(tables.has("delegation_flow")).toBe(true);
    expect(statements.filter((s) => s.startsWith("CREATE"))).toHaveLength(2);
  });

  it("are kept per instance: another storage looks for its own", () => {
    const a = fakeSql();
    const b = fakeSql();
    ensureTable(a.sql, "key_use", "CREATE TABLE IF NOT EXISTS key_use (key_id)");
    expect(hasTable(b.sql, "key_use")).toBe(false);
  });
});
