// Robustness, third round, item 4: a workspace's caps (20 webhook endpoints, 500 labels, 1000 folders)
// were counted, then the row inserted, so 40 parallel webhook creates made 40 endpoints. Each insert now
// counts in its own statement (`insertWhere`, src/db/batch.ts) and answers the cap's 422 when full.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MAX_FOLDERS_PER_WORKSPACE } from "../../src/folders/schemas";
import { MAX_LABELS_PER_WORKSPACE } from "../../src/labels/schemas";
import { MAX_ENDPOINTS_PER_WORKSPACE } from "../../src/webhooks/catalog";
import { call } from "../support/client";
import { createTenant } from "../support/seed";

type Tenant = Awaited<ReturnType<typeof createTenant>>;

const countIn = async (table: string, workspaceId: number) =>
  (await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE workspace_id = ?`)
    .bind(workspaceId)
    .first<{ n: number }>())!.n;

/** Fills `table` up to `rows` rows by direct inserts, a few statements per batch round trip. */
async function fill(table: "labels" | "folders", workspaceId: number, rows: number) {
  const statements = Array.from({ length: rows }, (_, i) =>
    env.DB.prepare(`INSERT INTO ${table} (workspace_id, name, color) VALUES (?, ?, '#000000')`).bind(
      workspaceId,
      `seeded ${i}`,
    ),
  );
  for (let i = 0; i < statements.length; i += 100) await env.DB.batch(statements.slice(i, i + 100));
}

/** Sends `n` creates at once (the key warmed first, so they all race for the same statements). */
async function race(t: Tenant, n: number, path: string, body: (i: number) => unknown) {
  await call("GET", "/api/v1/workspaces", { key: t.key });
  return Promise.all(Array.from({ length: n }, (_, i) => call("POST", path, { key: t.key, body: body(i) })));
}

function statuses(answers: Array<{ status: number }>) {
  const counts: Record<number, number> = {};
  for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

describe("caps under parallel creates", () => {
  it(`40 parallel webhook creates make exactly ${MAX_ENDPOINTS_PER_WORKSPACE} endpoints`, async () => {
    const t = await createTenant();
    const answers = await race(t, 40, "/api/v1/webhooks", (i) => ({
      workspace_id: t.workspace.id,
      url: `https://hooks.example.com/race/${i}`,
      events: ["post.published"],
    }));
    expect(statuses(answers)).toEqual({
      201: MAX_ENDPOINTS_PER_WORKSPACE,
      422: 40 - MAX_ENDPOINTS_PER_WORKSPACE,
    });
    for (const refused of answers.filter((a) => a.status === 422))
      expect(refused.body.errors.workspace_id).toEqual([
        `A workspace holds at most ${MAX_ENDPOINTS_PER_WORKSPACE} webhook endpoints: delete one to make room.`,
      ]);
    expect(await countIn("webhook_endpoints", t.workspace.id)).toBe(MAX_ENDPOINTS_PER_WORKSPACE);
  });

  it(`20 parallel label creates 5 short of the cap make exactly 5 (${MAX_LABELS_PER_WORKSPACE} in all)`, async () => {
    const t = await createTenant();
    await fill("labels", t.workspace.id, MAX_LABELS_PER_WORKSPACE - 5);
    const answers = await race(t, 20, "/api/v1/labels", (i) => ({
      workspace_id: t.workspace.id,
      name: `race ${i}`,
      color: "#123456",
    }));
    expect(statuses(answers)).toEqual({ 201: 5, 422: 15 });
    for (const refused of answers.filter((a) => a.status === 422))
      expect(refused.body.errors.workspace_id).toEqual([
        `A workspace holds at most ${MAX_LABELS_PER_WORKSPACE} labels: delete one to make room.`,
      ]);
    expect(await countIn("labels", t.workspace.id)).toBe(MAX_LABELS_PER_WORKSPACE);
  });

  it(`20 parallel folder creates 5 short of the cap make exactly 5 (${MAX_FOLDERS_PER_WORKSPACE} in all)`, async () => {
    const t = await createTenant();
    await fill("folders", t.workspace.id, MAX_FOLDERS_PER_WORKSPACE - 5);
    const answers = await race(t, 20, "/api/v1/folders", (i) => ({
      workspace_id: t.workspace.id,
      name: `race ${i}`,
    }));
    expect(statuses(answers)).toEqual({ 201: 5, 422: 15 });
    for (const refused of answers.filter((a) => a.status === 422))
      expect(refused.body.errors.workspace_id).toEqual([
        `A workspace holds at most ${MAX_FOLDERS_PER_WORKSPACE} folders: delete one to make room.`,
      ]);
    expect(await countIn("folders", t.workspace.id)).toBe(MAX_FOLDERS_PER_WORKSPACE);
  });
});
