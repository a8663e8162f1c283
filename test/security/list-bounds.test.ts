// Issue 10, item 3 (labels and folders): every list answer stays within a bounded size, so a workspace
// holds at most MAX_LABELS_PER_WORKSPACE labels and MAX_FOLDERS_PER_WORKSPACE folders.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MAX_FOLDERS_PER_WORKSPACE } from "../../src/folders/schemas";
import { MAX_LABELS_PER_WORKSPACE } from "../../src/labels/schemas";
import { call } from "../support/client";
import { createTenant } from "../support/seed";

/** Fills a workspace up to `count` rows straight in D1 (the API's rate limit would take minutes). */
async function fill(table: "labels" | "folders", workspaceId: number, count: number) {
  const statements = Array.from({ length: count }, (_, i) =>
    env.DB.prepare(`INSERT INTO ${table} (workspace_id, name, color) VALUES (?, ?, '#000000')`).bind(
      workspaceId,
      `n${i}`,
    ),
  );
  for (let i = 0; i < statements.length; i += 100) await env.DB.batch(statements.slice(i, i + 100));
}

describe("bounded labels and folders", () => {
  it(`refuses label number ${MAX_LABELS_PER_WORKSPACE + 1} of a workspace with a 422, and lists at most the cap`, async () => {
    const t = await createTenant();
    await fill("labels", t.workspace.id, MAX_LABELS_PER_WORKSPACE);
    const res = await call("POST", "/api/v1/labels", {
      key: t.key,
      body: { workspace_id: t.workspace.id, name: "one more", color: "#000000" },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.workspace_id).toEqual([
      `A workspace holds at most ${MAX_LABELS_PER_WORKSPACE} labels: delete one to make room.`,
    ]);
    const list = await call("GET", `/api/v1/labels?workspace_id=${t.workspace.id}`, { key: t.key });
    expect(list.body.data).toHaveLength(MAX_LABELS_PER_WORKSPACE);
  });

  it(`refuses folder number ${MAX_FOLDERS_PER_WORKSPACE + 1} of a workspace with a 422`, async () => {
    const t = await createTenant();
    await fill("folders", t.workspace.id, MAX_FOLDERS_PER_WORKSPACE);
    const res = await call("POST", "/api/v1/folders", {
      key: t.key,
      body: { workspace_id: t.workspace.id, name: "one more" },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.workspace_id).toEqual([
      `A workspace holds at most ${MAX_FOLDERS_PER_WORKSPACE} folders: delete one to make room.`,
    ]);
  });
});
