// X publications that outlast an attempt, on the emulator through the real queue consumer and the real X
// adapter: a #sandbox-slow video is uploaded once and published once over several attempts (each ends
// still_processing, the next polls the same media id), an upload past X's expiry is uploaded again, a
// thread interrupted midway continues after its last recorded post, a lost answer is reconciled by what
// was recorded, a redelivered message publishes nothing twice, and appends have the upload timeout.
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { backgroundOrigin } from "../../src/lib/origin";
import { SPECS } from "../../src/platforms/catalog";
import { sandboxFetch } from "../../src/platforms/sandbox/client";
import { emulatedAdapter } from "../../src/platforms/sandbox/emulated";
import type { Fetch } from "../../src/platforms/types";
import { patternBytes } from "../support/bytes";
import { insertMedia } from "../support/db";
import {
  accountRow,
  type Connected,
  clockSleep,
  connected,
  emulatedDeps,
  postsOf,
  published,
  redeliver,
  statsOf,
  untilSettled,
} from "./support";

afterEach(() => {
  vi.useRealTimers();
});

/** A library file whose bytes are in R2, named `name` (the name X's append carries). */
async function mediaFile(account: Connected, mime: string, size: number, name: string) {
  const type = mime.startsWith("video/") ? "video" : "image";
  const bytes = patternBytes(size, { step: 7, offset: 3 });
  const id = await insertMedia(account.workspace.id, { mime_type: mime, type, size, name });
  const row = await env.DB.prepare("SELECT r2_key FROM media WHERE id = ?")
    .bind(id)
    .first<{ r2_key: string }>();
  await env.MEDIA.put(row!.r2_key, bytes, { httpMetadata: { contentType: mime } });
  return id;
}

/** A call to the X emulator with a bearer token (a JSON body, a multipart form or none). */
async function xCall(method: string, path: string, token: string, body?: object | FormData) {
  const { exports } = await import("cloudflare:workers");
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (body !== undefined && !(body instanceof FormData)) headers["content-type"] = "application/json";
  const payload = body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body);
  const res = await exports.default.fetch(`https://api.example.test/sandbox/twitter${path}`, {
    method,
    headers,
    body: payload,
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** A fresh token of the account's handle (a new connect: the clock moved past the last one's life). */
const freshToken = async (handle: string) =>
  (await accountRow((await connected("twitter", handle)).accountId)).accessToken!;

describe("the X emulator's media ids live as X documents", () => {
  it("a media id lives expires_after_secs from its FINALIZE, not from its initialize", async () => {
    const { handle } = await connected("twitter");
    let token = await freshToken(handle);
    const init = await xCall("POST", "/2/media/upload/initialize", token, {
      media_type: "image/png",
      total_bytes: 4,
    });
    const id = init.body.data.id as string;
    const form = new FormData();
    form.set("segment_index", "0");
    form.set("media", new Blob([new Uint8Array([1, 2, 3, 4])]), "a.png");
    expect((await xCall("POST", `/2/media/upload/${id}/append`, token, form)).status).toBe(200);
    // Finalized 23 hours after its initialize: a day from now.
    vi.setSystemTime(Date.now() + 23 * 3_600_000);
    token = await freshToken(handle);
    const finalized = await xCall("POST", `/2/media/upload/${id}/finalize`, token);
    expect(finalized.status).toBe(200);
    expect(finalized.body.data.expires_after_secs).toBeGreaterThan(86_400 - 60);
    // Two hours later (25 after its initialize) it is still attachable.
    vi.setSystemTime(Date.now() + 2 * 3_600_000);
    token = await freshToken(handle);
    const post = await xCall("POST", "/2/tweets", token, { media: { media_ids: [id] } });
    expect(post.status).toBe(201);
  });
});

describe("X publications resumed across attempts (emulator, real queue consumer)", () => {
  it("#sandbox-slow video: still_processing while X processes it, then published; uploaded once, published once", async () => {
    const account = await connected("twitter");
    const clip = await mediaFile(account, "video/mp4", 3000, "clip #sandbox-slow.mp4");
    const deps = emulatedDeps();
    const first = await published(
      account,
      { content: [{ text: "Heavy #sandbox-slow", media: [clip] }] },
      1,
      deps,
    );
    expect(first.delivery).toMatchObject({ retries: 1 });
    expect(first.rows[0]).toMatchObject({ status: "PUBLISHING", error: { code: "still_processing" } });
    expect(await statsOf("twitter", account.handle)).toMatchObject({ media_uploads: 1, publications: 0 });

    const { rows, attempts } = await untilSettled(first.id, { deps });
    expect(rows[0]).toMatchObject({ status: "PUBLISHED", error: null });
    expect(attempts).toBeGreaterThanOrEqual(2);
    expect(await statsOf("twitter", account.handle)).toMatchObject({ media_uploads: 1, publications: 1 });
    const [post] = await postsOf("twitter", account.handle);
    expect(post!.id).toBe(rows[0]!.platform_post_id);
    expect(post!.media).toHaveLength(1);

    // The message delivered once more (a redelivery): nothing is uploaded or published again.
    await redeliver(first.id, attempts + 1, deps);
    expect(await statsOf("twitter", account.handle)).toMatchObject({ media_uploads: 1, publications: 1 });
  });

  it("an upload recorded past X's expires_after_secs (a day) is uploaded again, then published once", async () => {
    const account = await connected("twitter");
    const clip = await mediaFile(account, "video/mp4", 3000, "late #sandbox-slow.mp4");
    const deps = emulatedDeps();
    const first = await published(
      account,
      { content: [{ text: "Late #sandbox-slow", media: [clip] }] },
      1,
      deps,
    );
    expect(first.rows[0]).toMatchObject({ status: "PUBLISHING", error: { code: "still_processing" } });
    // The next attempt comes a day and an hour later (a long outage): X has dropped the media id.
    vi.setSystemTime(Date.now() + 25 * 60 * 60 * 1000);
    const { rows } = await untilSettled(first.id, { deps });
    expect(rows[0]).toMatchObject({ status: "PUBLISHED", error: null });
    expect(await statsOf("twitter", account.handle)).toMatchObject({ media_uploads: 2, publications: 1 });
  });

  it("a 3-item thread whose second post fails transiently continues with item 2: no duplicate first post", async () => {
    const account = await connected("twitter");
    const deps = emulatedDeps();
    const first = await published(
      account,
      { content: [{ text: "One" }, { text: "Two #sandbox-flaky" }, { text: "Three" }] },
      1,
      deps,
    );
    expect(first.rows[0]!.status).toBe("PUBLISHING");
    const { rows } = await untilSettled(first.id, { deps });
    expect(rows[0]).toMatchObject({ status: "PUBLISHED", error: null });
    const listed = await postsOf("twitter", account.handle);
    expect(listed.map((p) => p.id)).toEqual([rows[0]!.platform_post_id]);
    expect(listed[0]!.replies.map((r) => r.text)).toEqual(["Two #sandbox-flaky"]);
    expect(await statsOf("twitter", account.handle)).toMatchObject({ publications: 3 });
  });

  it("a thread's second post created but its answer lost: found among the first's replies, the thread completed once", async () => {
    const account = await connected("twitter");
    const deps = emulatedDeps();
    const first = await published(
      account,
      { content: [{ text: "Alpha" }, { text: "Beta #sandbox-lost" }, { text: "Gamma" }] },
      1,
      deps,
    );
    expect(first.rows[0]!.status).toBe("PUBLISHING");
    const { rows } = await untilSettled(first.id, { deps });
    expect(rows[0]).toMatchObject({ status: "PUBLISHED", error: null });
    expect(await statsOf("twitter", account.handle)).toMatchObject({ publications: 3 });
    const [root] = await postsOf("twitter", account.handle);
    expect(root!.replies).toHaveLength(1);
  });

  it("appends take the upload timeout: a slow append succeeds where an ordinary call as slow times out", async () => {
    const account = await connected("twitter");
    const row = await accountRow(account.accountId);
    const auth = { handle: account.handle, platformUserId: account.platformId, accessToken: row.accessToken };
    const origin = backgroundOrigin(env);
    const inner = sandboxFetch(origin);
    const delayed =
      (pattern: RegExp): Fetch =>
      async (input, init) => {
        const url = input instanceof Request ? input.url : String(input);
        if (pattern.test(url)) await new Promise((resolve) => setTimeout(resolve, 300));
        return inner(input, init);
      };
    const options = { sleep: clockSleep, timeouts: { call: 50, upload: 5000 } };
    const media = {
      url: "https://unused.example.test/clip.mp4",
      mime: "image/png",
      kind: "image" as const,
      size: 100,
      name: "photo.png",
      open: async () => new Blob([new Uint8Array(100)]).stream(),
    };
    const draft = { items: [{ text: "Slow pipe", media: [media] }], settings: {}, fingerprint: "sp-t-1" };
    const appendSlow = emulatedAdapter(SPECS.twitter, origin, delayed(/\/append$/), options);
    const post = await appendSlow.publish(auth, draft);
    expect(post.id).toMatch(/^\d{19}$/);

    const initSlow = emulatedAdapter(SPECS.twitter, origin, delayed(/\/initialize$/), options);
    const failure = await initSlow
      .publish(auth, { ...draft, items: [{ text: "Slow init", media: [media] }] })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: "timeout" });
  });
});
