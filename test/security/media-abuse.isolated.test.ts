// Issue 10, item 8: one import request could fan out to 50 URLs × 10 `og:` tags × 5 redirects; nothing
// bounded a workspace's storage; an upload whose file part came before its fields was stored before the
// workspace was checked.
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { app } from "../../src/app";
import { MAX_FETCHES_PER_IMPORT } from "../../src/media/config";
import {
  bytesResponse,
  file,
  form,
  freshHost,
  htmlResponse,
  importUrls,
  Origins,
  pageWithMeta,
  pngBytes,
  upload,
} from "../media/support";
import { ORIGIN } from "../support/client";
import { createTenant } from "../support/seed";

afterEach(() => vi.restoreAllMocks());

const storedObjects = async () => (await env.MEDIA.list({ prefix: "media/" })).objects.length;

describe("import fan-out", () => {
  it(`bounds one request to ${MAX_FETCHES_PER_IMPORT} fetches, however many pages and tags it names`, async () => {
    const t = await createTenant();
    const origins = new Origins();
    origins.install();
    const host = freshHost("fanout");
    const urls = Array.from({ length: 50 }, (_, i) => `${host}/page-${i}`);
    for (const url of urls) {
      const images = Array.from({ length: 10 }, (_, j): [string, string] => [
        "og:image",
        `${url}/img-${j}.png`,
      ]);
      origins.on(url, () => htmlResponse(pageWithMeta(images)));
      for (const [, image] of images) origins.on(image, () => bytesResponse(pngBytes(), "image/png"));
    }
    const res = await importUrls(t.key, { workspace_id: t.workspace.id, urls });
    expect(res.status).toBe(200);
    expect(origins.requested.length).toBeLessThanOrEqual(MAX_FETCHES_PER_IMPORT);
    expect(res.body.count_stored).toBeGreaterThan(0);
  });
});

/** Calls the app with a small storage quota, as an operator would configure it. */
const withQuota = (quota: number, path: string, init: RequestInit) =>
  app.fetch(new Request(`${ORIGIN}${path}`, init), { ...env, MEDIA_WORKSPACE_QUOTA_BYTES: String(quota) });

describe("per-workspace storage quota", () => {
  it("refuses an upload once the workspace's quota is used, storing nothing", async () => {
    const t = await createTenant();
    const send = () =>
      withQuota(5000, "/api/v1/media/upload", {
        method: "POST",
        headers: { authorization: `Bearer ${t.key}` },
        body: form([
          ["workspace_id", String(t.workspace.id)],
          ["file", file(pngBytes(3000), "a.png")],
        ]),
      });
    expect((await send()).status).toBe(201);
    const before = await storedObjects();
    const refused = await send();
    expect(refused.status).toBe(422);
    const body = (await refused.json()) as { errors: Record<string, string[]> };
    expect(body.errors.file?.[0]).toMatch(/storage quota/);
    expect(await storedObjects()).toBe(before);
  });

  it("refuses an import into a workspace whose quota is used up", async () => {
    const t = await createTenant();
    await env.DB.prepare(
      "INSERT INTO media (workspace_id, name, r2_key, mime_type, type, size, state, progress) VALUES (?, 'big.mp4', ?, 'video/mp4', 'video', 6000, 'ready', 100)",
    )
      .bind(t.workspace.id, `test/${crypto.randomUUID()}`)
      .run();
    const res = await withQuota(5000, "/api/v1/media/upload/url", {
      method: "POST",
      headers: { authorization: `Bearer ${t.key}`, "content-type": "application/json" },
      body: JSON.stringify({ workspace_id: t.workspace.id, urls: ["https://cdn.example.test/a.png"] }),
    });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { errors: Record<string, string[]> };
    expect(body.errors.workspace_id?.[0]).toMatch(/storage quota/);
  });
});

describe("uploads check their target before storing a byte", () => {
  it("refuses a file that comes before workspace_id, and stores nothing", async () => {
    const t = await createTenant();
    const before = await storedObjects();
    const res = await upload(t.key, [
      ["file", file(pngBytes(), "first.png")],
      ["workspace_id", String(t.workspace.id)],
    ]);
    expect(res.status).toBe(422);
    expect(res.body.errors.workspace_id).toEqual(["The workspace id field must come before the file."]);
    expect(await storedObjects()).toBe(before);
  });

  it("refuses a file for another tenant's workspace before storing it", async () => {
    const alice = await createTenant();
    const mallory = await createTenant();
    const before = await storedObjects();
    const res = await upload(mallory.key, [
      ["workspace_id", String(alice.workspace.id)],
      ["file", file(pngBytes(), "x.png")],
    ]);
    expect(res.status).toBe(404);
    expect(await storedObjects()).toBe(before);
  });
});
