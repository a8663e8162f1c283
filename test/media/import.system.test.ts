// POST /api/v1/media/upload/url through the worker, with fake origins in place of the network. The
// real local queue delivers the import messages to the worker; tests wait (bounded) until the items
// are settled, so no delivery outlives its test's fake origins.
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { app } from "../../src/app";
import { expectSameBytes } from "../support/bytes";
import { call, serverTiming } from "../support/client";
import { expectDocumented } from "../support/contract";
import { createKey, createTenant, createWorkspace } from "../support/seed";
import { REFUSED } from "./ssrf-table";
import {
  bytesOf,
  bytesResponse,
  endlessBody,
  expectMediaItem,
  fetchLink,
  freshHost,
  htmlResponse,
  importUrls,
  jpegBytes,
  mp4Bytes,
  Origins,
  pageWithMeta,
  pngBytes,
  redirect,
  settled,
  webmBytes,
} from "./support";

let origins: Origins;
beforeEach(() => {
  origins = new Origins();
  origins.install();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const ids = (res: { body: { media: Array<{ id: number }> } }) => res.body.media.map((m) => m.id);

describe("direct links", () => {
  it("imports an image: answered at once as processing, then stored by the queue and served", async () => {
    const tenant = await createTenant();
    const host = freshHost();
    const bytes = pngBytes(5000);
    origins.on(`${host}/photos/sunset%20beach.png`, () => bytesResponse(bytes, "image/png"));

    const res = await importUrls(tenant.key, {
      workspace_id: tenant.workspace.id,
      urls: [`${host}/photos/sunset%20beach.png`],
    });
    expect(res.status).toBe(200);
    // The route contract's import stores nothing (no fake origins there): the item's shape and the
    // budget (auth, workspace check, insert) are checked here.
    expectDocumented("POST", "/api/v1/media/upload/url", res);
    expect(serverTiming(res.headers).dbTrips).toBeLessThanOrEqual(3);
    expect(res.body.count_stored).toBe(1);
    const [item] = res.body.media;
    expectMediaItem(item);
    expect(item).toMatchObject({
      name: "sunset beach.png",
      mime_type: "image/png",
      type: "image",
      size: 5000,
      is_processing: true,
      progress: 0,
      ai_generated_id: null,
      is_reference: false,
      alt: null,
    });
    expect(item.url).toMatch(
      new RegExp(`^https://api\\.example\\.test/media/${item.id}\\?expires=\\d+&sig=[0-9a-f]{64}$`),
    );

    const [row] = await settled([item.id]);
    expect(row).toMatchObject({ state: "ready", progress: 100, size: 5000, mime_type: "image/png" });
    const served = await fetchLink(item.url);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    await expectSameBytes(await bytesOf(served), bytes);

    const listed = await call("GET", `/api/v1/media?workspace_id=${tenant.workspace.id}`, {
      key: tenant.key,
    });
    expect(listed.body.data[0]).toMatchObject({
      id: item.id,
      is_processing: false,
      progress: 100,
      size: 5000,
    });
  });

  it("imports videos (MP4 and WebM), with the type from the bytes when the origin says octet-stream", async () => {
    const tenant = await createTenant();
    const host = freshHost("video");
    const mp4 = mp4Bytes(70_000);
    const webm = webmBytes(9000);
    origins
      .on(`${host}/clip.mp4`, () => bytesResponse(mp4, "video/mp4"))
      .on(`${host}/download?id=7`, () => bytesResponse(webm, "application/octet-stream"));
    const res = await importUrls(tenant.key, {
      workspace_id: tenant.workspace.id,
      urls: [`${host}/clip.mp4`, `${host}/download?id=7`],
    });
    expect(res.status).toBe(200);
    expect(res.body.media.map((m: any) => [m.name, m.mime_type, m.type])).toEqual([
      ["clip.mp4", "video/mp4", "video"],
      ["download.webm", "video/webm", "video"],
    ]);
    const rows = await settled(ids(res));
    expect(rows.map((r) => [r.state, r.size])).toEqual([
      ["ready", 70_000],
      ["ready", 9000],
    ]);
    await expectSameBytes(await bytesOf(await fetchLink(res.body.media[0].url)), mp4);
    await expectSameBytes(await bytesOf(await fetchLink(res.body.media[1].url)), webm);
  });

  it("stores a body that comes without Content-Length (chunked), through the multipart path", async () => {
    const tenant = await createTenant();
    const host = freshHost();
    const head = jpegBytes(64);
    origins.on(`${host}/stream.jpg`, () => {
      const { stream } = endlessBody(300_000, head, 16 * 1024);
      return new Response(stream, { headers: { "content-type": "image/jpeg" } });
    });
    const res = await importUrls(tenant.key, {
      workspace_id: tenant.workspace.id,
      urls: [`${host}/stream.jpg`],
    });
    expect(res.body.media[0]).toMatchObject({ size: 0, is_processing: true, mime_type: "image/jpeg" });
    const [row] = await settled(ids(res));
    expect(row).toMatchObject({ state: "ready", size: 300_000 });
    const served = await fetchLink(res.body.media[0].url);
    expect(served.headers.get("content-length")).toBe("300000");
    await expectSameBytes((await bytesOf(served)).subarray(0, 64), head);
  });

  it("refuses HTML served as an image, a mislabelled type, SVG, and unknown bytes", async () => {
    const tenant = await createTenant();
    const host = freshHost();
    const html = new TextEncoder().encode("<!doctype html><html><body>login</body></html>");
    origins
      .on(`${host}/fake.png`, () => bytesResponse(html, "image/png"))
      .on(`${host}/video-but-png.mp4`, () => bytesResponse(pngBytes(), "video/mp4"))
      .on(`${host}/logo.svg`, () =>
        bytesResponse(new TextEncoder().encode("<svg onload=alert(1)/>"), "image/svg+xml"),
      )
      .on(`${host}/data.bin`, () => bytesResponse(new Uint8Array(100), "application/octet-stream"))
      .on(`${host}/doc.json`, () => bytesResponse(pngBytes(), "application/json"));
    const res = await importUrls(tenant.key, {
      workspace_id: tenant.workspace.id,
      urls: ["fake.png", "video-but-png.mp4", "logo.svg", "data.bin", "doc.json"].map((p) => `${host}/${p}`),
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ media: [], count_stored: 0 });
  });

  it("skips origins that answer 404, 500 or not at all, and answers 200 with what remains", async () => {
    const tenant = await createTenant();
    const host = freshHost();
    origins
      .on(`${host}/ok.jpg`, () => bytesResponse(jpegBytes(), "image/jpeg"))
      .on(`${host}/gone.jpg`, () => new Response("not here", { status: 404 }))
      .on(`${host}/broken.jpg`, () => new Response("oops", { status: 500 }))
      .on(`${host}/down.jpg`, () => {
        throw new TypeError("connection refused");
      });
    const res = await importUrls(tenant.key, {
      workspace_id: tenant.workspace.id,
      urls: ["ok.jpg", "gone.jpg", "broken.jpg", "down.jpg", "never-registered.jpg"].map(
        (p) => `${host}/${p}`,
      ),
    });
    expect(res.status).toBe(200);
    expect(res.body.count_stored).toBe(1);
    expect(res.body.media[0].name).toBe("ok.jpg");
    await settled(ids(res));
  });

  it("skips a URL whose Content-Length is over the cap for its type, without storing anything", async () => {
    const tenant = await createTenant();
    const host = freshHost();
    origins.on(`${host}/huge.png`, () => {
      const { stream } = endlessBody(21 * 1024 * 1024, pngBytes(64));
      return new Response(stream, {
        headers: { "content-type": "image/png", "content-length": String(21 * 1024 * 1024) },
      });
    });
    const res = await importUrls(tenant.key, {
      workspace_id: tenant.workspace.id,
      urls: [`${host}/huge.png`],
    });
    expect(res.body).toEqual({ media: [], count_stored: 0 });
  });
});

describe("pages", () => {
  it("resolves a page with one og:image to that image", async () => {
    const tenant = await createTenant();
    const host = freshHost("social");
    const jpeg = jpegBytes(3000);
    origins
      .on(`${host}/p/abc123`, () => htmlResponse(pageWithMeta([["og:image", `${host}/img/abc123.jpg`]])))
      .on(`${host}/img/abc123.jpg`, () => bytesResponse(jpeg, "image/jpeg"));
    const res = await importUrls(tenant.key, {
      workspace_id: tenant.workspace.id,
      urls: [`${host}/p/abc123`],
    });
    expect(res.body.count_stored).toBe(1);
    expect(res.body.media[0]).toMatchObject({ name: "abc123.jpg", mime_type: "image/jpeg", size: 3000 });
    await settled(ids(res));
    await expectSameBytes(await bytesOf(await fetchLink(res.body.media[0].url)), jpeg);
  });

  it("resolves every og:image, og:video and twitter:image of a page, relative and entity-encoded ones too", async () => {
    const tenant = await createTenant();
    const host = freshHost("stock");
    const page = pageWithMeta([
      ["og:image", `${host}/photos/one.jpg?w=1080&amp;q=80`],
      ["og:image:secure_url", `${host}/photos/one.jpg?w=1080&amp;q=80`],
      ["og:image", "/photos/two.png"],
      ["og:video", `${host}/videos/clip.mp4`],
      ["og:image", `${host}/photos/missing.jpg`],
      ["og:image", "http://169.254.169.254/latest/meta-data/"],
      ["og:title", `${host}/not-media.jpg`],
    ]).replace("</head>", `<meta name="twitter:image" content="${host}/photos/card.webp"></head>`);
    const webp = new Uint8Array([
      ...new TextEncoder().encode("RIFF\u0000\u0000\u0000\u0000WEBPVP8 "),
      ...new Uint8Array(500),
    ]);
    origins
      .on(`${host}/photo/42`, () => htmlResponse(page))
      .on(`${host}/photos/one.jpg?w=1080&q=80`, () => bytesResponse(jpegBytes(), "image/jpeg"))
      .on(`${host}/photos/two.png`, () => bytesResponse(pngBytes(), "image/png"))
      .on(`${host}/videos/clip.mp4`, () => bytesResponse(mp4Bytes(), "video/mp4"))
      .on(`${host}/photos/card.webp`, () => bytesResponse(webp, "image/webp"));
    const res = await importUrls(tenant.key, {
      workspace_id: tenant.workspace.id,
      urls: [`${host}/photo/42`],
    });
    expect(res.status).toBe(200);
    expect(res.body.media.map((m: any) => [m.name, m.type])).toEqual([
      ["one.jpg", "image"],
      ["two.png", "image"],
      ["clip.mp4", "video"],
      ["card.webp", "image"],
    ]);
    expect(res.body.count_stored).toBe(4);
    expect(origins.requested.some((u) => u.includes("169.254"))).toBe(false);
    expect(origins.hits(`${host}/not-media.jpg`)).toBe(0);
    const rows = await settled(ids(res));
    expect(rows.every((r) => r.state === "ready")).toBe(true);
  });

  it("gives no item for a page without media tags, or whose tags lead to HTML", async () => {
    const tenant = await createTenant();
    const host = freshHost();
    origins
      .on(`${host}/plain`, () => htmlResponse("<html><head><title>x</title></head><body></body></html>"))
      .on(`${host}/nested`, () => htmlResponse(pageWithMeta([["og:image", `${host}/plain`]])));
    const res = await importUrls(tenant.key, {
      workspace_id: tenant.workspace.id,
      urls: [`${host}/plain`, `${host}/nested`],
    });
    expect(res.body).toEqual({ media: [], count_stored: 0 });
  });
});

describe("redirects", () => {
  it("follows allowed redirects, then stores the bytes the final hop serves", async () => {
    const tenant = await createTenant();
    const short = freshHost("short");
    const cdn = freshHost("cdn");
    const png = pngBytes(4000);
    origins
      .on(`${short}/x1`, () => redirect(`${cdn}/r/step`, 301))
      .on(`${cdn}/r/step`, () => redirect("/assets/final.png", 308))
      .on(`${cdn}/assets/final.png`, () => bytesResponse(png, "image/png"));
    const res = await importUrls(tenant.key, { workspace_id: tenant.workspace.id, urls: [`${short}/x1`] });
    expect(res.body.media.map((m: any) => m.name)).toEqual(["final.png"]);
    await settled(ids(res));
    await expectSameBytes(await bytesOf(await fetchLink(res.body.media[0].url)), png);
  });

  it("refuses a redirect to a private address (and never fetches it), and a chain of more than five hops", async () => {
    const tenant = await createTenant();
    const host = freshHost();
    origins
      .on(`${host}/to-metadata`, () => redirect("http://169.254.169.254/latest/meta-data/iam"))
      .on(`${host}/to-loopback`, () => redirect("http://0x7f000001:8787/admin/v1/users"))
      .on(`${host}/to-v6`, () => redirect("http://[::ffff:127.0.0.1]/"));
    for (let i = 0; i < 6; i++) origins.on(`${host}/hop/${i}`, () => redirect(`${host}/hop/${i + 1}`));
    origins.on(`${host}/hop/6`, () => bytesResponse(pngBytes(), "image/png"));
    const res = await importUrls(tenant.key, {
      workspace_id: tenant.workspace.id,
      urls: [`${host}/to-metadata`, `${host}/to-loopback`, `${host}/to-v6`, `${host}/hop/0`],
    });
    expect(res.body).toEqual({ media: [], count_stored: 0 });
    expect(origins.requested.filter((u) => !u.startsWith(host))).toEqual([]);
    expect(origins.hits(`${host}/hop/6`)).toBe(0);
  });
});

describe("the SSRF table, through the endpoint", () => {
  it("skips every refused spelling without a single outbound request", async () => {
    const tenant = await createTenant();
    const urls = REFUSED.map(([url]) => url).filter((url) => url.length <= 2048);
    for (let i = 0; i < urls.length; i += 50) {
      const res = await importUrls(tenant.key, {
        workspace_id: tenant.workspace.id,
        urls: urls.slice(i, i + 50),
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ media: [], count_stored: 0 });
    }
    expect(origins.requested).toEqual([]);
  });

  it("fetches a private origin only when IMPORT_ALLOWED_PRIVATE_HOSTS lists its host:port", async () => {
    const tenant = await createTenant();
    origins.on("http://127.0.0.1:9917/local.png", () => bytesResponse(pngBytes(), "image/png"));
    const post = (allowed: string) =>
      app.request(
        "https://api.example.test/api/v1/media/upload/url",
        {
          method: "POST",
          headers: { authorization: `Bearer ${tenant.key}`, "content-type": "application/json" },
          body: JSON.stringify({
            workspace_id: tenant.workspace.id,
            urls: ["http://127.0.0.1:9917/local.png"],
          }),
        },
        { ...env, IMPORT_ALLOWED_PRIVATE_HOSTS: allowed },
      );
    const refused = await post("127.0.0.1:9918");
    expect(await refused.json()).toEqual({ media: [], count_stored: 0 });
    const allowed = await post("127.0.0.1:9917");
    const body = (await allowed.json()) as { count_stored: number; media: Array<{ id: number }> };
    expect(body.count_stored).toBe(1);
    // The queue consumer runs with the configured (empty) list, so the download itself is refused.
    const [row] = await settled(body.media.map((m) => m.id));
    expect(row).toMatchObject({ state: "failed" });
  });
});

describe("mixed batches, limits and validation", () => {
  it("keeps the input order across direct links, pages and failures, and counts what it stored", async () => {
    const tenant = await createTenant();
    const host = freshHost();
    origins
      .on(`${host}/a.jpg`, () => bytesResponse(jpegBytes(), "image/jpeg"))
      .on(`${host}/page`, () =>
        htmlResponse(
          pageWithMeta([
            ["og:image", `${host}/b.png`],
            ["og:video:url", `${host}/c.mp4`],
          ]),
        ),
      )
      .on(`${host}/b.png`, () => bytesResponse(pngBytes(), "image/png"))
      .on(`${host}/c.mp4`, () => bytesResponse(mp4Bytes(), "video/mp4"))
      .on(`${host}/d.png`, () => bytesResponse(pngBytes(), "image/png"));
    const res = await importUrls(tenant.key, {
      workspace_id: tenant.workspace.id,
      urls: [
        `${host}/a.jpg`,
        "http://localhost/x.png",
        `${host}/page`,
        "not a url",
        `${host}/missing.png`,
        `${host}/d.png`,
        `${host}/a.jpg`,
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.media.map((m: any) => m.name)).toEqual(["a.jpg", "b.png", "c.mp4", "d.png"]);
    expect(res.body.count_stored).toBe(4);
    for (const item of res.body.media) expectMediaItem(item);
    await settled(ids(res));
  });

  it("files items in the folder named, and answers 422 for a folder of another workspace", async () => {
    const tenant = await createTenant();
    const other = await createTenant();
    const host = freshHost();
    origins.on(`${host}/a.jpg`, () => bytesResponse(jpegBytes(), "image/jpeg"));
    const folder = await call("POST", "/api/v1/folders", {
      key: tenant.key,
      body: { workspace_id: tenant.workspace.id, name: "Campaign" },
    });
    const foreignFolder = await call("POST", "/api/v1/folders", {
      key: other.key,
      body: { workspace_id: other.workspace.id, name: "Theirs" },
    });
    expect(folder.status).toBe(201);
    const filed = await importUrls(tenant.key, {
      workspace_id: tenant.workspace.id,
      folder_id: folder.body.id,
      urls: [`${host}/a.jpg`],
    });
    expect(filed.body.count_stored).toBe(1);
    const [row] = await settled(ids(filed));
    expect(row!.folder_id).toBe(folder.body.id);

    const refused = await importUrls(tenant.key, {
      workspace_id: tenant.workspace.id,
      folder_id: foreignFolder.body.id,
      urls: [`${host}/a.jpg`],
    });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({
      message: "The selected folder id is invalid.",
      errors: { folder_id: ["The selected folder id is invalid."] },
    });
    expect(origins.hits(`${host}/a.jpg`)).toBe(2);
  });

  it("answers 404 Workspace not found. for another user's workspace and an absent one, before any fetch", async () => {
    const tenant = await createTenant();
    const other = await createTenant();
    const secondOfOther = await createWorkspace(other.user.id);
    for (const workspaceId of [other.workspace.id, secondOfOther.id, 99_999_999]) {
      const res = await importUrls(tenant.key, {
        workspace_id: workspaceId,
        urls: ["https://cdn.example.test/a.png"],
      });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: "Workspace not found." });
    }
    expect(origins.requested).toEqual([]);
  });

  it("answers 422 for a URL over 2048 characters, and for empty, oversized or malformed url lists", async () => {
    const tenant = await createTenant();
    const workspace_id = tenant.workspace.id;
    const long = `https://cdn.example.test/${"a".repeat(2030)}.png`;
    expect(long.length).toBeGreaterThan(2048);
    const cases: Array<[body: unknown, field: string]> = [
      [{ workspace_id, urls: ["https://cdn.example.test/a.png", long] }, "urls.1"],
      [{ workspace_id, urls: [] }, "urls"],
      [
        { workspace_id, urls: Array.from({ length: 51 }, (_, i) => `https://cdn.example.test/${i}.png`) },
        "urls",
      ],
      [{ workspace_id, urls: "https://cdn.example.test/a.png" }, "urls"],
      [{ workspace_id, urls: [42] }, "urls.0"],
      [{ urls: ["https://cdn.example.test/a.png"] }, "workspace_id"],
      [{ workspace_id: "abc", urls: ["https://cdn.example.test/a.png"] }, "workspace_id"],
      [{ workspace_id, urls: ["https://cdn.example.test/a.png"], folder_id: -1 }, "folder_id"],
    ];
    for (const [body, field] of cases) {
      const res = await importUrls(tenant.key, body as Record<string, unknown>);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(Object.keys(res.body.errors)).toContain(field);
    }
    const exact = `https://cdn.example.test/${"b".repeat(2048 - 29)}.png`;
    expect(exact.length).toBe(2048);
    const ok = await importUrls(tenant.key, { workspace_id, urls: [exact] });
    expect(ok.status).toBe(200);
    expect(origins.requested).toEqual([exact]);
  });

  it("answers 401 without a key, 403 without the posts ability, 400/415 for bad bodies", async () => {
    const tenant = await createTenant();
    const body = { workspace_id: tenant.workspace.id, urls: ["https://cdn.example.test/a.png"] };
    expect((await importUrls("", body)).status).toBe(401);
    const limited = await createKey(tenant.user.id, ["workspaces", "accounts", "labels"]);
    const forbidden = await importUrls(limited.key, body);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual({ message: "Forbidden - Insufficient permissions", ability: "posts" });
    const malformed = await call("POST", "/api/v1/media/upload/url", {
      key: tenant.key,
      rawBody: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect(malformed.status).toBe(400);
    const notJson = await call("POST", "/api/v1/media/upload/url", {
      key: tenant.key,
      rawBody: "urls=x",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(notJson.status).toBe(415);
    expect(origins.requested).toEqual([]);
  });
});
