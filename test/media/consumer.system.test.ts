// The media-import consumer, called as the runtime calls it (createMessageBatch / getQueueResult), on
// rows inserted straight into D1 so the real queue holds no message for them.
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import worker from "../../src/index";
import { backoffSeconds } from "../../src/lib/queue";
import { IMPORT_BACKOFF } from "../../src/media/import/consumer";
import { expectSameBytes } from "../support/bytes";
import { createTenant } from "../support/seed";
import {
  bytesOf,
  bytesResponse,
  endlessBody,
  freshHost,
  htmlResponse,
  insertProcessing,
  mediaRow,
  mp4Bytes,
  Origins,
  pngBytes,
  redirect,
} from "./support";

let origins: Origins;
let workspaceId: number;
beforeEach(async () => {
  origins = new Origins();
  origins.install();
  workspaceId ??= (await createTenant()).workspace.id;
});
afterEach(() => {
  vi.restoreAllMocks();
});

let messageCounter = 0;
async function deliver(
  mediaIds: unknown[],
  options: { queue?: string; attempts?: number; vars?: Partial<Env> } = {},
) {
  const batch = createMessageBatch(
    options.queue ?? "media-import",
    mediaIds.map((id) => ({
      id: `msg-${messageCounter++}`,
      timestamp: new Date(),
      attempts: options.attempts ?? 1,
      body: typeof id === "number" ? { media_id: id } : id,
    })),
  );
  // getQueueResult() records that a message was retried, not its delay: watch retry() for that.
  const retries = batch.messages.map((message) => vi.spyOn(message, "retry"));
  const ctx = createExecutionContext();
  await worker.queue(batch, { ...env, ...options.vars }, ctx);
  const result = await getQueueResult(batch, ctx);
  const delays = retries.flatMap((spy) => spy.mock.calls.map(([opts]) => opts?.delaySeconds));
  return { ...result, delays };
}

const objectsAt = async (key: string) => (await env.MEDIA.list({ prefix: key })).objects.length;

describe("storing", () => {
  it("streams a body with Content-Length into R2, records size, type and ETag, and acks", async () => {
    const host = freshHost();
    const mp4 = mp4Bytes(200_000);
    origins.on(`${host}/clip.mp4`, () => bytesResponse(mp4, "video/mp4"));
    const row = await insertProcessing(workspaceId, `${host}/clip.mp4`);
    const result = await deliver([row.id]);
    expect(result.explicitAcks).toEqual([expect.any(String)]);
    expect(result.retryMessages).toEqual([]);
    const stored = await mediaRow(row.id);
    expect(stored).toMatchObject({
      state: "ready",
      progress: 100,
      size: 200_000,
      mime_type: "video/mp4",
      error: null,
    });
    const object = await env.MEDIA.get(row.r2_key);
    expect(object!.httpMetadata?.contentType).toBe("video/mp4");
    expect(stored!.etag).toBe(object!.httpEtag);
    await expectSameBytes(await bytesOf(new Response(object!.body)), mp4);
  });

  it("keeps a body with Content-Length to exactly that length: a short one is retried, nothing stored", async () => {
    const host = freshHost();
    origins.on(`${host}/short.mp4`, () => {
      const { stream } = endlessBody(500_000, mp4Bytes(64));
      return new Response(stream, { headers: { "content-type": "video/mp4", "content-length": "900000" } });
    });
    const row = await insertProcessing(workspaceId, `${host}/short.mp4`);
    const result = await deliver([row.id]);
    expect(result.retryMessages).toHaveLength(1);
    expect(await mediaRow(row.id)).toMatchObject({ state: "processing" });
    expect(await objectsAt(row.r2_key)).toBe(0);
  });

  it("retries a download the origin cuts off midway", async () => {
    const host = freshHost();
    origins.on(`${host}/cut.mp4`, () => {
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent > 0) return controller.error(new TypeError("connection reset"));
          sent += 64;
          controller.enqueue(mp4Bytes(64));
        },
      });
      return new Response(body, { headers: { "content-type": "video/mp4", "content-length": "100000" } });
    });
    const row = await insertProcessing(workspaceId, `${host}/cut.mp4`);
    const result = await deliver([row.id]);
    expect(result.retryMessages).toHaveLength(1);
    expect(await objectsAt(row.r2_key)).toBe(0);
  });

  it.each([
    ["a JavaScript stream (copied into the part buffer)", false],
    ["a byte stream (read straight into the part buffer)", true],
  ])("stores a body without Content-Length from %s in equal multipart parts", async (_, byteStream) => {
    const host = freshHost();
    const total = 11 * 1024 * 1024 + 123;
    const bytes = mp4Bytes(total);
    origins.on(`${host}/long`, () => {
      // A Response made from bytes has a byte-stream body and, built here, no Content-Length header.
      if (byteStream) return new Response(bytes, { headers: { "content-type": "video/mp4" } });
      const { stream } = endlessBody(total, bytes.subarray(0, 64));
      return new Response(stream, { headers: { "content-type": "video/mp4" } });
    });
    const row = await insertProcessing(workspaceId, `${host}/long`);
    await deliver([row.id]);
    expect(await mediaRow(row.id)).toMatchObject({ state: "ready", size: total });
    const object = await env.MEDIA.get(row.r2_key);
    expect(object!.size).toBe(total);
    expect(object!.httpEtag).toMatch(/-3"$/); // three parts: 5 MiB, 5 MiB and the rest
    const stored = await bytesOf(new Response(object!.body));
    expect(stored.subarray(0, 64)).toEqual(bytes.subarray(0, 64));
    if (byteStream) await expectSameBytes(stored, bytes);
  });

  it("stores one object when the same message is delivered twice, in turn or at once", async () => {
    const host = freshHost();
    const png = pngBytes(40_000);
    origins.on(`${host}/a.png`, () => bytesResponse(png, "image/png"));
    const first = await insertProcessing(workspaceId, `${host}/a.png`, {
      mime_type: "image/png",
      type: "image",
    });
    await deliver([first.id]);
    const again = await deliver([first.id]);
    expect(again.explicitAcks).toHaveLength(1);
    expect(origins.hits(`${host}/a.png`)).toBe(1);
    expect(await objectsAt(first.r2_key)).toBe(1);

    const twin = await insertProcessing(workspaceId, `${host}/a.png`, {
      mime_type: "image/png",
      type: "image",
    });
    const both = await deliver([twin.id, twin.id]);
    expect(both.explicitAcks).toHaveLength(2);
    expect(await mediaRow(twin.id)).toMatchObject({ state: "ready", size: 40_000 });
    expect(await objectsAt(twin.r2_key)).toBe(1);
    await expectSameBytes(await bytesOf(new Response((await env.MEDIA.get(twin.r2_key))!.body)), png);
  });

  it("acks without fetching when the item was deleted, and drops malformed messages", async () => {
    const host = freshHost();
    const row = await insertProcessing(workspaceId, `${host}/a.mp4`);
    await env.DB.prepare("DELETE FROM media WHERE id = ?").bind(row.id).run();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const result = await deliver([row.id, { nope: true }, { media_id: "1" }]);
    expect(result.explicitAcks).toHaveLength(3);
    expect(warn).toHaveBeenCalledTimes(2);
    expect(origins.requested).toEqual([]);
  });
});

describe("permanent failures: the item is failed, the message acked, nothing stored", () => {
  it("aborts a body mid-stream once it passes the cap for its type", async () => {
    const host = freshHost();
    let body: ReturnType<typeof endlessBody> | undefined;
    origins.on(`${host}/endless.mp4`, () => {
      body = endlessBody(64 * 1024 * 1024, mp4Bytes(64));
      return new Response(body.stream, { headers: { "content-type": "video/mp4" } });
    });
    const row = await insertProcessing(workspaceId, `${host}/endless.mp4`);
    const result = await deliver([row.id], { vars: { MEDIA_MAX_VIDEO_BYTES: String(1024 * 1024) } });
    expect(result.explicitAcks).toHaveLength(1);
    expect(await mediaRow(row.id)).toMatchObject({ state: "failed", progress: 0, size: 0 });
    expect((await mediaRow(row.id))!.error).toMatch(/larger than 1048576 bytes/);
    expect(body!.pulled()).toBeLessThan(2 * 1024 * 1024);
    expect(body!.cancelled()).toBe(true);
    expect(await objectsAt(row.r2_key)).toBe(0);
  });

  it("aborts a byte-stream body mid-stream once it passes the cap", async () => {
    const host = freshHost();
    origins.on(
      `${host}/big.mp4`,
      () => new Response(mp4Bytes(8 * 1024 * 1024), { headers: { "content-type": "video/mp4" } }),
    );
    const row = await insertProcessing(workspaceId, `${host}/big.mp4`);
    const result = await deliver([row.id], { vars: { MEDIA_MAX_VIDEO_BYTES: String(1024 * 1024) } });
    expect(result.explicitAcks).toHaveLength(1);
    expect(await mediaRow(row.id)).toMatchObject({ state: "failed" });
    expect(await objectsAt(row.r2_key)).toBe(0);
  });

  it("fails a body whose Content-Length is over the cap before storing a byte", async () => {
    const host = freshHost();
    origins.on(`${host}/declared.png`, () => bytesResponse(pngBytes(300_000), "image/png"));
    const row = await insertProcessing(workspaceId, `${host}/declared.png`, {
      type: "image",
      mime_type: "image/png",
    });
    await deliver([row.id], { vars: { MEDIA_MAX_IMAGE_BYTES: "100000" } });
    expect(await mediaRow(row.id)).toMatchObject({ state: "failed" });
    expect((await mediaRow(row.id))!.error).toMatch(/larger than the image cap/);
    expect(await objectsAt(row.r2_key)).toBe(0);
  });

  it.each([
    ["HTML served as a video", () => htmlResponse("<html><body>now a login page</body></html>")],
    [
      "HTML labelled as a video",
      () => bytesResponse(new TextEncoder().encode("<!DOCTYPE html><p>x</p>"), "video/mp4"),
    ],
    ["a 404", () => new Response("gone", { status: 404 })],
    ["a 410", () => new Response("gone", { status: 410 })],
    ["a redirect to a private address", () => redirect("http://192.168.0.10/clip.mp4")],
    ["an image where a video was found", () => bytesResponse(pngBytes(), "video/mp4")],
  ])("%s", async (_, answer) => {
    const host = freshHost();
    origins.on(`${host}/clip.mp4`, answer);
    const row = await insertProcessing(workspaceId, `${host}/clip.mp4`);
    const result = await deliver([row.id]);
    expect(result.explicitAcks).toHaveLength(1);
    expect(result.retryMessages).toEqual([]);
    expect(await mediaRow(row.id)).toMatchObject({ state: "failed" });
    expect(await objectsAt(row.r2_key)).toBe(0);
    expect(origins.requested.every((u) => u.startsWith(host))).toBe(true);
  });
});

describe("transient failures: retried with backoff, then dead-lettered", () => {
  it.each([
    ["a 503", () => new Response("busy", { status: 503 })],
    ["a 429", () => new Response("slow down", { status: 429 })],
    [
      "a network fault",
      () => {
        throw new TypeError("connection reset");
      },
    ],
  ])("retries %s with a growing delay and leaves the item processing", async (_, answer) => {
    const host = freshHost();
    origins.on(`${host}/clip.mp4`, answer);
    const row = await insertProcessing(workspaceId, `${host}/clip.mp4`);
    const first = await deliver([row.id], { attempts: 1 });
    expect(first.retryMessages).toHaveLength(1);
    expect(first.delays).toEqual([10]);
    const third = await deliver([row.id], { attempts: 3 });
    expect(third.delays).toEqual([40]);
    expect(first.explicitAcks).toEqual([]);
    expect(await mediaRow(row.id)).toMatchObject({ state: "processing" });
  });

  it("retries an origin that does not answer within MEDIA_IMPORT_TIMEOUT_SECONDS", async () => {
    const host = freshHost();
    origins.on(
      `${host}/slow.mp4`,
      (request) =>
        new Promise<Response>((_, reject) => {
          request.signal.addEventListener("abort", () => reject(request.signal.reason));
        }),
    );
    const row = await insertProcessing(workspaceId, `${host}/slow.mp4`);
    const result = await deliver([row.id], { vars: { MEDIA_IMPORT_TIMEOUT_SECONDS: "1" } });
    expect(result.retryMessages).toHaveLength(1);
    expect(await mediaRow(row.id)).toMatchObject({ state: "processing" });
  });

  it("marks the item failed when its message reaches the dead-letter queue", async () => {
    const host = freshHost();
    const row = await insertProcessing(workspaceId, `${host}/clip.mp4`);
    // As if an attempt stored the bytes and then failed to record it.
    await env.MEDIA.put(row.r2_key, mp4Bytes(100));
    const result = await deliver([row.id], { queue: "media-import-dlq", attempts: 6 });
    expect(result.explicitAcks).toHaveLength(1);
    expect(await mediaRow(row.id)).toMatchObject({ state: "failed", error: "import retries exhausted" });
    expect(await objectsAt(row.r2_key)).toBe(0);
    expect(origins.requested).toEqual([]);
  });

  it("leaves an item already stored alone when a stale dead letter arrives", async () => {
    const host = freshHost();
    origins.on(`${host}/a.png`, () => bytesResponse(pngBytes(), "image/png"));
    const row = await insertProcessing(workspaceId, `${host}/a.png`, {
      type: "image",
      mime_type: "image/png",
    });
    await deliver([row.id]);
    await deliver([row.id], { queue: "media-import-dlq" });
    expect(await mediaRow(row.id)).toMatchObject({ state: "ready" });
  });

  it("backs off exponentially, capped at ten minutes", () => {
    expect([1, 2, 3, 4, 5, 6, 12].map((n) => backoffSeconds(n, IMPORT_BACKOFF))).toEqual([
      10, 20, 40, 80, 160, 320, 600,
    ]);
  });
});
