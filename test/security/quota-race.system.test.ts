// Robustness, third round, item 3: the storage quota was read, then bytes stored, so six parallel 90 KB
// uploads against a 100,000-byte quota all stored (5.4×), and URL imports read usage the same way. Each
// check is now made in the statement that takes the bytes (src/media/quota.ts).
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { app } from "../../src/app";
import worker from "../../src/index";
import {
  bytesResponse,
  endlessBody,
  type Field,
  file,
  form,
  freshHost,
  insertProcessing,
  mediaRow,
  Origins,
  pngBytes,
} from "../media/support";
import { ORIGIN } from "../support/client";
import { createTenant } from "../support/seed";

afterEach(() => vi.restoreAllMocks());

const QUOTA = 100_000;
const vars = { MEDIA_WORKSPACE_QUOTA_BYTES: String(QUOTA) };

/** Calls the app with a 100,000-byte storage quota, as an operator would configure it. */
async function withQuota(key: string, path: string, init: { body: BodyInit; json?: boolean }) {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (init.json) headers["content-type"] = "application/json";
  const res = await app.fetch(new Request(`${ORIGIN}${path}`, { method: "POST", headers, body: init.body }), {
    ...env,
    ...vars,
  });
  return { status: res.status, body: (await res.json()) as any };
}

const uploadWithQuota = (key: string, fields: Field[]) =>
  withQuota(key, "/api/v1/media/upload", { body: form(fields) });

const itemsOf = (workspaceId: number) =>
  env.DB.prepare("SELECT id, size, state FROM media WHERE workspace_id = ? ORDER BY id")
    .bind(workspaceId)
    .all<{ id: number; size: number; state: string }>()
    .then((r) => r.results);

const reservationsOf = (workspaceId: number) =>
  env.DB.prepare("SELECT count(*) AS n FROM media_reservations WHERE workspace_id = ?")
    .bind(workspaceId)
    .first<{ n: number }>()
    .then((r) => r?.n ?? 0);

const objectCount = async () => (await env.MEDIA.list({ prefix: "media/" })).objects.length;

describe("uploads racing for the quota", () => {
  it("six parallel 90 KB uploads against 100,000 bytes: exactly one stored, five refused with 422", async () => {
    const t = await createTenant();
    const before = await objectCount();
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        uploadWithQuota(t.key, [
          ["workspace_id", String(t.workspace.id)],
          ["file", file(pngBytes(90_000), `race-${i}.png`)],
        ]),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, 422, 422, 422, 422, 422]);
    for (const refused of answers.filter((a) => a.status === 422))
      expect(refused.body.errors.file[0]).toMatch(/storage quota of 0\.1 MB/);
    const items = await itemsOf(t.workspace.id);
    expect(items).toEqual([{ id: expect.any(Number), size: 90_000, state: "ready" }]);
    expect(await objectCount()).toBe(before + 1);
    // Every reservation was swapped for the item or dropped.
    expect(await reservationsOf(t.workspace.id)).toBe(0);
  });

  it("a failed upload frees what it reserved", async () => {
    const t = await createTenant();
    // Not media: refused after its reservation was taken.
    const notMedia = await uploadWithQuota(t.key, [
      ["workspace_id", String(t.workspace.id)],
      ["file", file(new Uint8Array(90_000).fill(65), "text.png")],
    ]);
    expect(notMedia.status).toBe(422);
    // Over the quota: cut off mid-stream.
    const tooBig = await uploadWithQuota(t.key, [
      ["workspace_id", String(t.workspace.id)],
      ["file", file(pngBytes(120_000), "big.png")],
    ]);
    expect(tooBig.status).toBe(422);
    expect(tooBig.body.errors.file[0]).toMatch(/would exceed the workspace's storage quota/);
    expect(await reservationsOf(t.workspace.id)).toBe(0);
    // The whole quota is still free.
    const fits = await uploadWithQuota(t.key, [
      ["workspace_id", String(t.workspace.id)],
      ["file", file(pngBytes(95_000), "fits.png")],
    ]);
    expect(fits.status).toBe(201);
    expect(await reservationsOf(t.workspace.id)).toBe(0);
  });

  it("a reservation left by a request that died counts for nothing once expired", async () => {
    const t = await createTenant();
    await env.DB.prepare("INSERT INTO media_reservations (workspace_id, bytes, expires_at) VALUES (?, ?, ?)")
      .bind(t.workspace.id, QUOTA, Date.now() - 1000)
      .run();
    const res = await uploadWithQuota(t.key, [
      ["workspace_id", String(t.workspace.id)],
      ["file", file(pngBytes(50_000), "after.png")],
    ]);
    expect(res.status).toBe(201);
    // The expired one went with the upload's own.
    expect(await reservationsOf(t.workspace.id)).toBe(0);
  });
});

describe("imports racing for the quota", () => {
  it("six parallel imports of 90 KB against 100,000 bytes create exactly one item", async () => {
    const t = await createTenant();
    const origins = new Origins();
    origins.install();
    const host = freshHost("quota");
    const urls = Array.from({ length: 6 }, (_, i) => `${host}/race-${i}.png`);
    for (const url of urls) origins.on(url, () => bytesResponse(pngBytes(90_000), "image/png"));
    const answers = await Promise.all(
      urls.map((url) =>
        withQuota(t.key, "/api/v1/media/upload/url", {
          json: true,
          body: JSON.stringify({ workspace_id: t.workspace.id, urls: [url] }),
        }),
      ),
    );
    // An item over what is left is skipped, as documented: the same answers as one after another.
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(answers.map((a) => a.body.count_stored).sort()).toEqual([0, 0, 0, 0, 0, 1]);
    const items = await itemsOf(t.workspace.id);
    expect(items).toHaveLength(1);
    expect(items[0]!.size).toBe(90_000);
  });

  it("parallel downloads without a length cannot overfill the quota either", async () => {
    const t = await createTenant();
    const origins = new Origins();
    origins.install();
    const host = freshHost("quota-stream");
    const rows = [];
    for (let i = 0; i < 3; i++) {
      const url = `${host}/stream-${i}.png`;
      // 60 KB each, no Content-Length: only the download finds the size.
      origins.on(url, () => new Response(endlessBody(60_000, pngBytes(64)).stream));
      rows.push(
        await insertProcessing(t.workspace.id, url, { name: "s.png", mime_type: "image/png", type: "image" }),
      );
    }
    const batch = createMessageBatch(
      "media-import",
      rows.map((row, i) => ({
        id: `quota-${i}`,
        timestamp: new Date(),
        attempts: 1,
        body: { media_id: row.id },
      })),
    );
    const ctx = createExecutionContext();
    await worker.queue(batch, { ...env, ...vars }, ctx);
    await getQueueResult(batch, ctx);
    const settled = await Promise.all(rows.map((row) => mediaRow(row.id)));
    const ready = settled.filter((row) => row?.state === "ready");
    expect(ready).toHaveLength(1);
    expect(ready[0]!.size).toBe(60_000);
    expect(settled.filter((row) => row?.state === "failed")).toHaveLength(2);
    const held = settled.reduce((sum, row) => sum + (row?.state === "failed" ? 0 : row!.size), 0);
    expect(held).toBeLessThanOrEqual(QUOTA);
  });
});

describe("the bytes a workspace holds (workspaces.media_bytes, kept by triggers)", () => {
  it("follows every insert, size or state change, move and delete, failed items aside", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const held = async (workspaceId: number) =>
      (await env.DB.prepare(
        "SELECT media_bytes AS held, (SELECT coalesce(sum(size), 0) FROM media WHERE workspace_id = ? AND state != 'failed') AS summed FROM workspaces WHERE id = ?",
      )
        .bind(workspaceId, workspaceId)
        .first<{ held: number; summed: number }>())!;
    const expectHeld = async (workspaceId: number, bytes: number) =>
      expect(await held(workspaceId)).toEqual({ held: bytes, summed: bytes });
    const insert = (size: number, state: string) =>
      env.DB.prepare(
        "INSERT INTO media (workspace_id, name, r2_key, mime_type, type, size, state, progress) VALUES (?, 'x.png', ?, 'image/png', 'image', ?, ?, 100) RETURNING id",
      )
        .bind(t.workspace.id, `test/${crypto.randomUUID()}`, size, state)
        .first<{ id: number }>()
        .then((r) => r!.id);
    const a = await insert(1000, "ready");
    const b = await insert(500, "processing");
    await insert(700, "failed");
    await expectHeld(t.workspace.id, 1500);
    await env.DB.prepare("UPDATE media SET size = 800 WHERE id = ?").bind(b).run();
    await expectHeld(t.workspace.id, 1800);
    await env.DB.prepare("UPDATE media SET state = 'failed', size = 0 WHERE id = ?").bind(b).run();
    await expectHeld(t.workspace.id, 1000);
    await env.DB.prepare("UPDATE media SET workspace_id = ? WHERE id = ?").bind(other.workspace.id, a).run();
    await expectHeld(t.workspace.id, 0);
    await expectHeld(other.workspace.id, 1000);
    await env.DB.prepare("DELETE FROM media WHERE id = ?").bind(a).run();
    await expectHeld(other.workspace.id, 0);
  });
});
