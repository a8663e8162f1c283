// A LinkedIn publication across attempts, on the emulator through the real queue consumer (issue 20,
// items 5 and 6): an image (or video) processing for 150 s (#sandbox-slow in its bytes: LinkedIn's
// uploads carry no text) is uploaded once and published once over as many attempts as it takes; a
// redelivered or raced message publishes nothing twice; an answer lost after the post's creation is
// reconciled without a second upload; an upload gets the upload timeout, an ordinary call the call one;
// a URL in the text reaches LinkedIn as written.
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { backgroundOrigin } from "../../src/lib/origin";
import { SPECS } from "../../src/platforms/catalog";
import { LINKEDIN_VERSION } from "../../src/platforms/linkedin/api";
import { sandboxFetch } from "../../src/platforms/sandbox/client";
import { emulatedAdapter } from "../../src/platforms/sandbox/emulated";
import type { DraftMedia, Fetch } from "../../src/platforms/types";
import { sandboxPlatformId } from "../../src/sandbox/emulators";
import { mintToken } from "../../src/sandbox/mint";
import { call, ORIGIN } from "../support/client";
import {
  type Connected,
  clockSleep,
  connected,
  emulatedDeps,
  postsOf,
  published,
  redeliver,
  statsOf,
  unique,
  untilSettled,
} from "./support";

afterEach(() => {
  vi.useRealTimers();
});

const SLOW = new TextEncoder().encode("tEXtComment #sandbox-slow ");
/** A PNG (its signature, then bytes), with `#sandbox-slow` in a text chunk when `slow`. */
const png = (seed: number, slow = false) => {
  const body = new Uint8Array(600).map((_, i) =>
    i < 8 ? [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a][i]! : (i * seed) % 256,
  );
  if (slow) body.set(SLOW, 16);
  return body;
};

async function upload(account: Connected, name: string, bytes: Uint8Array) {
  const form = new FormData();
  form.set("workspace_id", String(account.workspace.id));
  form.set("file", new File([bytes], name, { type: "image/png" }));
  const res = await call("POST", "/api/v1/media/upload", { key: account.key, body: form });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as number;
}

describe("LinkedIn: resuming a publication", () => {
  it("#sandbox-slow image: still_processing, resumed by its URN, uploaded once and published once", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const account = await connected("linkedin");
    const media = await upload(account, "slow.png", png(3, true));
    const first = await published(
      account,
      { content: [{ text: "Heavy picture #sandbox-slow", media: [media] }] },
      1,
      emulatedDeps(),
    );
    expect(first.rows[0]).toMatchObject({ status: "PUBLISHING", error: { code: "still_processing" } });
    expect(await statsOf("linkedin", account.handle)).toMatchObject({ publications: 0, media_uploads: 1 });

    const { rows, attempts } = await untilSettled(first.id, {
      max: 12,
      between: (rows) => expect(rows[0]!.error).toMatchObject({ code: "still_processing" }),
    });
    expect(rows[0]).toMatchObject({ status: "PUBLISHED", error: null });
    expect(attempts).toBeGreaterThan(1);
    expect(await statsOf("linkedin", account.handle)).toMatchObject({ publications: 1, media_uploads: 1 });
    const [post] = await postsOf("linkedin", account.handle);
    expect(post!.platform_request.content.media.id).toMatch(/^urn:li:image:/);

    // The message delivered once more after PUBLISHED: nothing is sent again.
    await redeliver(first.id, attempts + 1, emulatedDeps());
    expect(await statsOf("linkedin", account.handle)).toMatchObject({ publications: 1, media_uploads: 1 });
  });

  it("two deliveries of the same message at once publish one post with one upload", async () => {
    const account = await connected("linkedin");
    const media = await upload(account, "a.png", png(5));
    const res = await call("POST", "/api/v1/posts", {
      key: account.key,
      body: {
        workspace_id: account.workspace.id,
        accounts: [account.accountId],
        content: [{ text: `Raced ${unique()}`, media: [media] }],
      },
    });
    expect(res.status).toBe(201);
    const { setStatus } = await import("../publishing/support");
    await setStatus(res.body.id, "PUBLISHING");
    const deps = emulatedDeps();
    await Promise.all([redeliver(res.body.id, 1, deps), redeliver(res.body.id, 1, deps)]);
    // Whichever lost the race retries later: one more delivery settles it.
    const { rows } = await redeliver(res.body.id, 2, deps);
    expect(rows[0]).toMatchObject({ status: "PUBLISHED" });
    expect(await statsOf("linkedin", account.handle)).toMatchObject({ publications: 1, media_uploads: 1 });
  });

  it("#sandbox-lost with an image on a member: the next attempt polls the recorded image, no second upload, one post", async () => {
    const account = await connected("linkedin");
    const media = await upload(account, "b.png", png(7));
    const first = await published(
      account,
      { content: [{ text: `Lost answer #sandbox-lost ${unique()}`, media: [media] }] },
      1,
      emulatedDeps(),
    );
    expect(first.rows[0]!.status).toBe("PUBLISHING");
    const { rows } = await redeliver(first.id, 2, emulatedDeps());
    expect(rows[0]).toMatchObject({
      status: "PUBLISHED",
      platform_post_id: expect.stringMatching(/^urn:li:share:/),
    });
    expect(await statsOf("linkedin", account.handle)).toMatchObject({ publications: 1, media_uploads: 1 });
  });

  it("a URL in the text reaches LinkedIn as written; the markup around it is escaped and shown as typed", async () => {
    const account = await connected("linkedin");
    const text = `Read (https://example.com/a_b(c)?q=[1]&to=@x) now @team_a ${unique()}`;
    const { rows } = await published(account, { content: [{ text }] }, 1, emulatedDeps());
    expect(rows[0]!.status).toBe("PUBLISHED");
    const [post] = await postsOf("linkedin", account.handle);
    expect(post!.text[0]).toBe(text);
    expect(post!.platform_request.commentary).toContain("https://example.com/a_b(c)?q=[1]&to=@x");
  });
});

describe("LinkedIn's Images API on the emulator", () => {
  /** A call to the emulated REST API as the adapter makes it. */
  const rest = async (token: string, method: string, path: string, body?: unknown) => {
    const response = await sandboxFetch(backgroundOrigin(env))(`${ORIGIN}/sandbox/linkedin/rest${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        "linkedin-version": LINKEDIN_VERSION,
        "x-restli-protocol-version": "2.0.0",
        "content-type": "application/json",
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  };
  const put = (url: string, bytes: Uint8Array) =>
    sandboxFetch(backgroundOrigin(env))(url, { method: "PUT", body: bytes });

  it("WAITING_UPLOAD, PROCESSING (150 s for #sandbox-slow bytes), AVAILABLE; a post may use only an AVAILABLE image", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const handle = `i${unique()}`;
    const token = await mintToken(env, "linkedin", handle);
    const owner = `urn:li:person:${await sandboxPlatformId("linkedin", handle)}`;
    const started = await rest(token, "POST", "/images?action=initializeUpload", {
      initializeUploadRequest: { owner },
    });
    expect(started.status).toBe(200);
    const { image, uploadUrl, uploadUrlExpiresAt } = started.body.value;
    expect(uploadUrlExpiresAt).toBeGreaterThan(Date.now());
    const status = async () => (await rest(token, "GET", `/images/${encodeURIComponent(image)}`)).body.status;
    expect(await status()).toBe("WAITING_UPLOAD");
    const post = () =>
      rest(token, "POST", "/posts", {
        author: owner,
        commentary: "Picture",
        visibility: "PUBLIC",
        distribution: {
          feedDistribution: "MAIN_FEED",
          targetEntities: [],
          thirdPartyDistributionChannels: [],
        },
        content: { media: { id: image } },
        lifecycleState: "PUBLISHED",
      });
    expect((await post()).status).toBe(422);
    expect((await put(uploadUrl, png(2, true))).status).toBe(201);
    expect(await status()).toBe("PROCESSING");
    const refused = await post();
    expect(refused.status).toBe(422);
    expect(refused.body.message).toContain("still processing");
    vi.setSystemTime(Date.now() + 150_000);
    expect(await status()).toBe("AVAILABLE");
    expect((await post()).status).toBe(201);
  });

  it("bytes that are no image: PROCESSING_FAILED; an upload URL past its validity takes no bytes", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const handle = `j${unique()}`;
    const token = await mintToken(env, "linkedin", handle);
    const owner = `urn:li:person:${await sandboxPlatformId("linkedin", handle)}`;
    const start = async () =>
      (await rest(token, "POST", "/images?action=initializeUpload", { initializeUploadRequest: { owner } }))
        .body.value;
    const broken = await start();
    expect((await put(broken.uploadUrl, new Uint8Array([1, 2, 3, 4]))).status).toBe(201);
    expect((await rest(token, "GET", `/images/${encodeURIComponent(broken.image)}`)).body.status).toBe(
      "PROCESSING_FAILED",
    );
    const late = await start();
    vi.setSystemTime(late.uploadUrlExpiresAt + 1);
    expect((await put(late.uploadUrl, png(4))).status).toBe(404);
    const fresh = await mintToken(env, "linkedin", handle);
    expect((await rest(fresh, "GET", `/images/${encodeURIComponent(late.image)}`)).body.status).toBe(
      "WAITING_UPLOAD",
    );
  });
});

describe("LinkedIn: upload timeout", () => {
  const image = (bytes: Uint8Array): DraftMedia => ({
    url: "https://media.example.test/a.png",
    mime: "image/png",
    kind: "image",
    size: bytes.length,
    name: "a.png",
    open: async (range) =>
      new Blob([range ? bytes.slice(range.offset, range.offset + range.length) : bytes]).stream(),
  });
  /** The emulator's fetch, delaying requests whose URL matches `slow` by 300 ms. */
  const delaying =
    (slow: RegExp): Fetch =>
    async (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (slow.test(url)) await new Promise((resolve) => setTimeout(resolve, 300));
      return sandboxFetch(backgroundOrigin(env))(input, init);
    };
  const adapterWith = (fetch: Fetch) =>
    emulatedAdapter(SPECS.linkedin, backgroundOrigin(env), fetch, {
      sleep: clockSleep,
      timeouts: { call: 50, upload: 5000 },
    });
  const draft = (text: string) => ({
    items: [{ text, media: [image(png(9))] }],
    settings: { visibility: "PUBLIC", disable_reshare: false, document_title: null },
    fingerprint: `sp-${unique()}`,
  });

  it("an image PUT delayed 300 ms succeeds under the upload timeout; an ordinary call delayed the same way times out", async () => {
    const handle = `t${unique()}`;
    const auth = { handle, platformUserId: null, accessToken: null };
    const post = await adapterWith(delaying(/\/dms-uploads\//)).publish(auth, draft(`Timed ${unique()}`));
    expect(post.id).toMatch(/^urn:li:share:/);

    const refused = await adapterWith(delaying(/\/rest\/images\?action=initializeUpload/))
      .publish(auth, draft(`Timed out ${unique()}`))
      .then(
        () => null,
        (error: unknown) => error,
      );
    // Before anything is published a timeout is only transient.
    expect(refused).toMatchObject({ kind: "transient", code: "timeout" });
  });
});
