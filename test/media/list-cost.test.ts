// The media list's total comes from counters the database keeps (migrations/0005 triggers) on the
// workspace and on each folder, never from counting items; these tests hold them to plain SQL counts.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { admin, call } from "../support/client";
import { createTenant } from "../support/seed";

type Tenant = Awaited<ReturnType<typeof createTenant>>;

async function folder(t: Tenant, name: string) {
  const res = await call("POST", "/api/v1/folders", {
    key: t.key,
    body: { workspace_id: t.workspace.id, name },
  });
  expect(res.status).toBe(201);
  return res.body.id as number;
}

/** `n` ready images straight in D1, in `folderId` (null: the workspace's root). */
async function items(workspaceId: number, folderId: number | null, n: number) {
  for (let i = 0; i < n; i++) {
    await env.DB.prepare(
      "INSERT INTO media (workspace_id, folder_id, name, r2_key, mime_type, type, size) VALUES (?, ?, 'a.png', ?, 'image/png', 'image', 10)",
    )
      .bind(workspaceId, folderId, `test/list-cost/${crypto.randomUUID()}`)
      .run();
  }
}

const total = async (t: Tenant, query: string) => {
  const res = await call("GET", `/api/v1/media?per_page=2&${query}`, { key: t.key });
  expect(res.status).toBe(200);
  return res.body.total as number;
};

const counted = async (where: string, value: number) =>
  (await env.DB.prepare(`SELECT count(*) AS n FROM media WHERE ${where} = ?`)
    .bind(value)
    .first<{ n: number }>())!.n;

describe("GET /api/v1/media totals", () => {
  it("follow inserts, folder moves and deletes, per workspace and per folder", async () => {
    const t = await createTenant();
    const a = await folder(t, "A");
    const b = await folder(t, "B");
    await items(t.workspace.id, a, 5);
    await items(t.workspace.id, b, 3);
    await items(t.workspace.id, null, 4);
    expect(await total(t, "")).toBe(12);
    expect(await total(t, `workspace_id=${t.workspace.id}`)).toBe(12);
    expect(await total(t, `folder_id=${a}`)).toBe(5);

    await env.DB.prepare(
      "UPDATE media SET folder_id = ? WHERE id = (SELECT max(id) FROM media WHERE folder_id = ?)",
    )
      .bind(b, a)
      .run();
    expect(await total(t, `folder_id=${a}`)).toBe(await counted("folder_id", a));
    expect(await total(t, `folder_id=${b}`)).toBe(4);

    const inB = await call("GET", `/api/v1/media?folder_id=${b}&per_page=1`, { key: t.key });
    expect((await call("DELETE", `/api/v1/media/${inB.body.data[0].id}`, { key: t.key })).status).toBe(200);
    expect(await total(t, `folder_id=${b}`)).toBe(3);
    expect(await total(t, "")).toBe(await counted("workspace_id", t.workspace.id));
  });

  it("answers 0 for a folder of another workspace, and sums every workspace of the user", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const theirs = await folder(other, "theirs");
    await items(other.workspace.id, theirs, 2);
    expect(await total(t, `folder_id=${theirs}`)).toBe(0);
    await items(t.workspace.id, null, 1);
    await admin("POST", `/workspaces/${other.workspace.id}/members`, { user_id: t.user.id });
    expect(await total(t, "")).toBe(3);
    // The folder now belongs to one of the user's workspaces, but not to the one asked for.
    expect(await total(t, `folder_id=${theirs}&workspace_id=${t.workspace.id}`)).toBe(0);
  });
});
