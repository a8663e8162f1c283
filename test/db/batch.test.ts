// The batch idioms of src/db/batch.ts: multi-row inserts stay under D1's 100 bound parameters, counted
// on drizzle's own SQL (it also binds the JS defaults of columns a row leaves out).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { D1_MAX_PARAMS, insertInChunks, runBatch } from "../../src/db/batch";
import { createDb } from "../../src/db/client";
import { media } from "../../src/db/schema";
import { createTenant } from "../support/seed";

describe("insertInChunks", () => {
  it("keeps every statement within D1's parameter limit, and the batch inserts every row", async () => {
    const t = await createTenant();
    const db = createDb(env.DB);
    const rows = Array.from({ length: 120 }, (_, i) => ({
      workspaceId: t.workspace.id,
      name: `m${i}.png`,
      r2Key: `test/${crypto.randomUUID()}`,
      mimeType: "image/png",
      type: "image" as const,
      size: 1,
    }));
    const statements = insertInChunks(db, media, rows);
    expect(statements.length).toBeGreaterThan(1);
    for (const statement of statements)
      expect(statement.toSQL().params.length).toBeLessThanOrEqual(D1_MAX_PARAMS);
    await runBatch(db, statements);
    const count = await env.DB.prepare("SELECT count(*) AS n FROM media WHERE workspace_id = ?")
      .bind(t.workspace.id)
      .first<{ n: number }>();
    expect(count?.n).toBe(120);
  });

  it("writes nothing for no rows, and runBatch spends no round trip on an empty list", async () => {
    const db = createDb(env.DB);
    expect(insertInChunks(db, media, [])).toEqual([]);
    expect(await runBatch(db, [])).toEqual([]);
  });
});
