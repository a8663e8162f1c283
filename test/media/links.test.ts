// GET /media/{id}?expires=&sig=: the signed links in every Media item's `url`.
import { env, exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { app } from "../../src/app";
import { signMediaUrl } from "../../src/media/links";
import { expectSameBytes } from "../support/bytes";
import { ORIGIN } from "../support/client";
import { expectDocumented } from "../support/contract";
import { createTenant } from "../support/seed";
import { bytesOf, fetchLink, insertProcessing, jpegBytes } from "./support";

const SIZE = 10_000;
const bytes = jpegBytes(SIZE);
let ready: { id: number; url: string; etag: string };

/** A ready item straight in D1 and R2, as the consumer leaves it. */
async function readyItem(workspaceId: number, data: Uint8Array) {
  const key = `media/${crypto.randomUUID()}`;
  const object = await env.MEDIA.put(key, data, { httpMetadata: { contentType: "image/jpeg" } });
  const row = await env.DB.prepare(
    `INSERT INTO media (workspace_id, name, r2_key, mime_type, type, size, state, progress, etag)
     VALUES (?, 'café photo.jpg', ?, 'image/jpeg', 'image', ?, 'ready', 100, ?) RETURNING id`,
  )
    .bind(workspaceId, key, data.byteLength, object!.httpEtag)
    .first<{ id: number }>();
  return { id: row!.id, url: await signMediaUrl(env, ORIGIN, row!.id), etag: object!.httpEtag, key };
}

let workspaceId: number;
beforeAll(async () => {
  workspaceId = (await createTenant()).workspace.id;
  ready = await readyItem(workspaceId, bytes);
});

describe("serving", () => {
  it("serves the exact bytes with type, length, ETag and private caching until the link expires, without a key", async () => {
    const res = await fetchLink(ready.url);
    expect(res.status).toBe(200);
    await expectSameBytes(await bytesOf(res), bytes);
    expect(res.headers.get("content-type")).toBe("image/jpeg");
    expect(res.headers.get("content-length")).toBe(String(SIZE));
    expect(res.headers.get("etag")).toBe(ready.etag);
    expect(res.headers.get("accept-ranges")).toBe("bytes");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-disposition")).toBe(
      `inline; filename="caf_ photo.jpg"; filename*=UTF-8''caf%C3%A9%20photo.jpg`,
    );
    const expires = Number(new URL(ready.url).searchParams.get("expires"));
    const maxAge = Number(/^private, max-age=(\d+)$/.exec(res.headers.get("cache-control") ?? "")?.[1]);
    expect(maxAge).toBeGreaterThan(24 * 3600 - 60);
    expect(maxAge).toBeLessThanOrEqual(expires - Math.floor(Date.now() / 1000));
    expect(res.headers.get("x-ratelimit-limit")).toBeNull();
  });

  it("answers HEAD with the headers only", async () => {
    const res = await exports.default.fetch(ready.url, { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).toBe(ready.etag);
    expect(res.headers.get("content-length")).toBe(String(SIZE));
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });

  it.each([
    ["bytes=0-99", 0, 99],
    ["bytes=100-", 100, SIZE - 1],
    ["bytes=-50", SIZE - 50, SIZE - 1],
    ["bytes=9990-20000", 9990, SIZE - 1],
    ["bytes=5000-5000", 5000, 5000],
    ["bytes=-20000", 0, SIZE - 1],
  ])("serves Range %s as 206 with the matching slice", async (range, first, last) => {
    const res = await fetchLink(ready.url, { range });
    expect(res.status).toBe(206);
    expect(res.headers.get("content-range")).toBe(`bytes ${first}-${last}/${SIZE}`);
    expect(res.headers.get("content-length")).toBe(String(last - first + 1));
    await expectSameBytes(await bytesOf(res), bytes.subarray(first, last + 1));
  });

  it.each(["bytes=10000-", "bytes=20000-20010", "bytes=-0"])("answers 416 for %s", async (range) => {
    const res = await fetchLink(ready.url, { range });
    expect(res.status).toBe(416);
    expect(res.headers.get("content-range")).toBe(`bytes */${SIZE}`);
    expect(await res.json()).toEqual({ message: "The requested range is not satisfiable." });
  });

  it.each(["items=0-5", "bytes=0-5,10-15", "bytes=9-3", "bytes=x-y"])(
    "ignores an unusable Range (%s) and serves everything",
    async (range) => {
      const res = await fetchLink(ready.url, { range });
      expect(res.status).toBe(200);
      expect((await bytesOf(res)).byteLength).toBe(SIZE);
    },
  );

  it("answers 304 to a matching If-None-Match", async () => {
    const res = await fetchLink(ready.url, { "if-none-match": ready.etag });
    expect(res.status).toBe(304);
    expect(res.headers.get("etag")).toBe(ready.etag);
  });
});

describe("refusals", () => {
  const forbidden = async (url: string, message: string) => {
    const res = await fetchLink(url);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ message });
  };

  it("403 for a tampered signature, id or expiry, and for a missing signature", async () => {
    const url = new URL(ready.url);
    const sig = url.searchParams.get("sig")!;
    const flipped = `${sig.slice(0, 10)}${sig[10] === "a" ? "b" : "a"}${sig.slice(11)}`;
    await forbidden(ready.url.replace(sig, flipped), "Invalid signature.");
    await forbidden(ready.url.replace(sig, sig.toUpperCase()), "Invalid signature.");
    await forbidden(
      ready.url.replace(`/media/${ready.id}?`, `/media/${ready.id + 1}?`),
      "Invalid signature.",
    );
    const expires = url.searchParams.get("expires")!;
    await forbidden(
      ready.url.replace(`expires=${expires}`, `expires=${Number(expires) + 3600}`),
      "Invalid signature.",
    );
    await forbidden(`${ORIGIN}/media/${ready.id}?expires=${expires}`, "Invalid signature.");
    await forbidden(`${ORIGIN}/media/${ready.id}`, "Invalid signature.");
  });

  it("403 for an expired link, even with a valid signature", async () => {
    const twoDaysAgo = Date.now() - 2 * 24 * 3600 * 1000;
    await forbidden(await signMediaUrl(env, ORIGIN, ready.id, twoDaysAgo), "This link has expired.");
  });

  it("409 while the item is processing, 404 once it failed, was deleted, or for a non-numeric id", async () => {
    const processing = await insertProcessing(workspaceId, "https://cdn.example.test/a.mp4");
    const pending = await fetchLink(await signMediaUrl(env, ORIGIN, processing.id));
    expect(pending.status).toBe(409);
    expect(await pending.json()).toEqual({ message: "The media item is still processing." });

    await env.DB.prepare("UPDATE media SET state = 'failed' WHERE id = ?").bind(processing.id).run();
    const failed = await fetchLink(await signMediaUrl(env, ORIGIN, processing.id));
    expect(failed.status).toBe(404);
    expect(await failed.json()).toEqual({ message: "Media not found." });

    const gone = await readyItem(workspaceId, jpegBytes(100));
    await env.DB.prepare("DELETE FROM media WHERE id = ?").bind(gone.id).run();
    expect((await fetchLink(gone.url)).status).toBe(404);

    const lost = await readyItem(workspaceId, jpegBytes(100));
    await env.MEDIA.delete(lost.key);
    expect((await fetchLink(lost.url)).status).toBe(404);

    expect((await fetchLink(`${ORIGIN}/media/abc?expires=1&sig=00`)).status).toBe(404);
  });
});

describe("the document", () => {
  type Documented = { headers?: Record<string, unknown>; content?: Record<string, unknown> };
  const documented = () => {
    const definition = (
      app.openAPIRegistry.definitions as unknown as Array<{
        type: string;
        route?: { method: string; path: string; responses: Record<string, Documented>; security?: unknown };
      }>
    ).find((d) => d.type === "route" && d.route?.method === "get" && d.route.path === "/media/{id}");
    expect(definition, "GET /media/{id} is in the OpenAPI document").toBeDefined();
    return definition!.route!;
  };

  /** The answer carries every header its documented response names. */
  const expectDocumentedHeaders = (res: Response) => {
    const response = documented().responses[String(res.status)];
    expect(response, `a documented ${res.status}`).toBeDefined();
    for (const name of Object.keys(response!.headers ?? {})) {
      expect(res.headers.get(name), `${res.status} ${name}`).not.toBeNull();
    }
  };

  it("documents the bytes (200, 206) with their headers, and 304, with no security", async () => {
    const route = documented();
    // No credential but the signature: declared as an empty requirement, which generators and linters read.
    expect(route.security).toEqual([]);
    for (const status of ["200", "206"]) {
      const response = route.responses[status]!;
      expect(Object.keys(response.content ?? {})).toEqual(["image/*", "video/*"]);
      expect(Object.keys(response.headers ?? {})).toEqual(
        expect.arrayContaining(["Content-Type", "Content-Length", "ETag", "Accept-Ranges"]),
      );
    }
    expect(Object.keys(route.responses["206"]!.headers ?? {})).toContain("Content-Range");
    expect(route.responses["304"]).toBeDefined();

    const whole = await fetchLink(ready.url);
    expect(whole.status).toBe(200);
    expectDocumentedHeaders(whole);
    const part = await fetchLink(ready.url, { range: "bytes=0-9" });
    expect(part.status).toBe(206);
    expectDocumentedHeaders(part);
    const cached = await fetchLink(ready.url, { "if-none-match": ready.etag });
    expect(cached.status).toBe(304);
    expectDocumentedHeaders(cached);
  });

  it("answers 403, 404, 409 and 416 with their documented bodies", async () => {
    const processing = await insertProcessing(workspaceId, "https://cdn.example.test/a.mp4");
    const answers = [
      [403, await fetchLink(`${ORIGIN}/media/${ready.id}`)],
      [404, await fetchLink(`${ORIGIN}/media/abc?expires=1&sig=00`)],
      [409, await fetchLink(await signMediaUrl(env, ORIGIN, processing.id))],
      [416, await fetchLink(ready.url, { range: "bytes=20000-" })],
    ] as const;
    for (const [status, res] of answers) {
      expect(res.status).toBe(status);
      expectDocumented("GET", "/media/{id}", { status, body: await res.json(), headers: res.headers });
    }
  });
});
