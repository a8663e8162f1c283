// Pinterest end to end on its emulator (src/sandbox/pinterest/), through the real adapter: connect by
// the consent page and the v5 token endpoint, image, carousel and video Pins (the video registered,
// posted to the storage form and polled), Pinterest's own refusals, the failure triggers, analytics in
// Pinterest's metric names, the continuous refresh of tokens and a revoked grant.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { decryptSecret } from "../../src/lib/crypto";
import { boardId } from "../../src/sandbox/pinterest/publish";
import { runFlow } from "../delegation/support";
import { mp4Bytes, pngBytes } from "../media/support";
import { type Connected, syncPost, uploadMedia } from "../platforms/live/harness";
import { deliver, publishingPost, rowsOf, settled } from "../publishing/support";
import { call, ORIGIN } from "../support/client";
import { createPost, createTenant } from "../support/seed";

const SANDBOX = "/sandbox/pinterest";

type Stored = {
  platform_user_id: string;
  username: string;
  access_token_enc: string;
  refresh_token_enc: string;
  token_expires_at: number;
  expired_at: number | null;
};
const stored = (id: number) => env.DB.prepare("SELECT * FROM accounts WHERE id = ?").bind(id).first<Stored>();

let handles = 0;
/** A Pinterest account connected through POST /api/v1/accounts/connect and the sandbox's consent. */
async function connect(): Promise<Connected & { handle: string; board: string }> {
  const tenant = await createTenant();
  const handle = `pinner_${Date.now().toString(36)}_${handles++}`;
  const started = await call("POST", "/api/v1/accounts/connect", {
    key: tenant.key,
    body: {
      workspace_id: tenant.workspace.id,
      platform: "pinterest",
      redirect_url: "https://app.example.test/done",
    },
  });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const { landed } = await runFlow(started.body.authorize_url, { handle });
  expect(landed.searchParams.get("status")).toBe("connected");
  return {
    tenant,
    accountId: Number(landed.searchParams.get("account_id")),
    handle,
    board: await boardId(handle, "ideas"),
  };
}

const tokenOf = async (accountId: number) =>
  decryptSecret(env.ENCRYPTION_KEY, (await stored(accountId))!.access_token_enc);

const pinterest = (path: string, token: string, init: { method?: string; body?: unknown } = {}) =>
  call(init.method ?? "GET", `${SANDBOX}${path}`, {
    headers: { authorization: `Bearer ${token}` },
    body: init.body,
  });
const FORM = { "content-type": "application/x-www-form-urlencoded" };

const postJson = async (id: string) => {
  const res = await call("GET", `${SANDBOX}/posts/${id}`, { headers: { accept: "application/json" } });
  expect(res.status).toBe(200);
  return res.body as {
    id: string;
    handle: string;
    text: string[];
    media: Array<{ type: string; url: string }>;
    platform_request: any;
  };
};
const stats = async (handle: string) => (await call("GET", `${SANDBOX}/accounts/${handle}/stats`)).body;
const pinsOf = async (handle: string) =>
  (await call("GET", `${SANDBOX}/accounts/${handle}/posts`)).body.data as Array<{
    id: string;
    text: string[];
  }>;

async function publish(a: Connected & { board: string }, fields: Record<string, unknown>) {
  const id = await publishingPost(a.tenant, {
    accounts: [a.accountId],
    settings: { pinterest: { board_id: a.board, title: "Launch", alt_text: "A rocket" } },
    ...fields,
  });
  await deliver([{ post_id: id }]);
  return { id, rows: await rowsOf(id) };
}

describe("Pinterest on its emulator", () => {
  it("connects: Basic client auth at /v5/oauth/token, the user_account, 30-day token and continuous refresh token", async () => {
    const before = Date.now();
    const a = await connect();
    const account = (await stored(a.accountId))!;
    expect(account.username).toBe(a.handle);
    expect(account.platform_user_id).toMatch(/^\d{18}$/);
    expect(account.refresh_token_enc).toBeTruthy();
    expect(account.token_expires_at - before).toBeGreaterThan(29 * 86_400_000);
    expect(account.token_expires_at - before).toBeLessThanOrEqual(30 * 86_400_000 + 60_000);

    const me = await pinterest("/v5/user_account", await tokenOf(a.accountId));
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: account.platform_user_id, username: a.handle, board_count: 2 });
    const boards = await pinterest("/v5/boards", await tokenOf(a.accountId));
    expect(boards.body.items.map((b: { id: string }) => b.id)).toContain(a.board);

    // The token endpoint wants the client by HTTP Basic, and answers Pinterest's error model.
    const anonymous = await call("POST", `${SANDBOX}/v5/oauth/token`, {
      headers: FORM,
      rawBody: "grant_type=authorization_code&code=x&redirect_uri=https://x.test/",
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ code: 2, message: expect.stringContaining("Authentication failed") });
  });

  it("publishes an image Pin in Pinterest's own field names, one publication, post_url on the sandbox", async () => {
    const a = await connect();
    const png = await uploadMedia(a, "launch.png", "image/png", pngBytes(4096));
    const { rows } = await publish(a, { content: [{ text: "Launch day", media: [png] }] });
    const [row] = rows;
    expect(row).toMatchObject({ status: "PUBLISHED", error: null });
    expect(row!.platform_post_id).toMatch(/^\d{18}$/);
    expect(row!.post_url).toBe(`${ORIGIN}${SANDBOX}/posts/${row!.platform_post_id}`);
    const page = await call("GET", `${SANDBOX}/pin/${row!.platform_post_id}/`);
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe(`${ORIGIN}${SANDBOX}/posts/${row!.platform_post_id}`);

    const pin = await postJson(row!.platform_post_id!);
    expect(pin.handle).toBe(a.handle);
    expect(pin.text).toEqual(["Launch day"]);
    expect(pin.platform_request).toMatchObject({
      board_id: a.board,
      description: "Launch day",
      title: "Launch",
      alt_text: "A rocket",
      media_source: {
        source_type: "image_url",
        url: expect.stringMatching(/^https:\/\/api\.example\.test\/media\//),
      },
    });
    expect(await stats(a.handle)).toMatchObject({ publications: 1, media_uploads: 0 });

    const listed = await pinterest("/v5/pins?page_size=25", await tokenOf(a.accountId));
    expect(listed.body.items).toEqual([
      expect.objectContaining({ id: row!.platform_post_id, board_id: a.board, creative_type: "REGULAR" }),
    ]);
  });

  it("publishes a carousel as multiple_image_urls", async () => {
    const a = await connect();
    const one = await uploadMedia(a, "one.png", "image/png", pngBytes(2048));
    const two = await uploadMedia(a, "two.png", "image/png", pngBytes(3000));
    const { rows } = await publish(a, { content: [{ text: "Two views", media: [one, two] }] });
    expect(rows[0]).toMatchObject({ status: "PUBLISHED" });
    const pin = await postJson(rows[0]!.platform_post_id!);
    expect(pin.platform_request.media_source.source_type).toBe("multiple_image_urls");
    expect(pin.platform_request.media_source.items).toHaveLength(2);
    expect(pin.media).toHaveLength(2);
    expect(await stats(a.handle)).toMatchObject({ publications: 1 });
  });

  it("publishes a video Pin: registered, posted to the storage form, processed, then the Pin names the media", async () => {
    const a = await connect();
    const clip = await uploadMedia(a, "clip.mp4", "video/mp4", mp4Bytes(8192));
    const { rows } = await publish(a, { content: [{ text: "In motion", media: [clip] }] });
    expect(rows[0]).toMatchObject({ status: "PUBLISHED", error: null });
    const pin = await postJson(rows[0]!.platform_post_id!);
    expect(pin.platform_request.media_source).toMatchObject({
      source_type: "video_id",
      media_id: expect.stringMatching(/^\d+$/),
      cover_image_key_frame_time: 1,
    });
    expect(pin.media[0]!.type).toBe("video/mp4");
    // The stored video is the uploaded bytes.
    const video = await call("GET", new URL(pin.media[0]!.url).pathname);
    expect(video.status).toBe(200);
    expect(await stats(a.handle)).toMatchObject({ publications: 1, media_uploads: 1 });
    const media = await pinterest(
      `/v5/media/${pin.platform_request.media_source.media_id}`,
      await tokenOf(a.accountId),
    );
    expect(media.body).toEqual({
      media_id: pin.platform_request.media_source.media_id,
      media_type: "video",
      status: "succeeded",
    });
  });

  it("media: registered before its bytes, processing 150 s for #sandbox-slow, never another user's", async () => {
    const a = await connect();
    const b = await connect();
    const token = await tokenOf(a.accountId);
    const registered = await pinterest("/v5/media", token, { method: "POST", body: { media_type: "video" } });
    expect(registered.status).toBe(201);
    const { media_id, upload_url, upload_parameters } = registered.body;
    expect(upload_url).toBe("https://pinterest-media-upload.s3-accelerate.amazonaws.com/");
    expect((await pinterest(`/v5/media/${media_id}`, token)).body.status).toBe("registered");
    expect((await pinterest(`/v5/media/${media_id}`, await tokenOf(b.accountId))).status).toBe(404);

    const form = new FormData();
    for (const [name, value] of Object.entries(upload_parameters as Record<string, string>))
      form.set(name, value);
    form.set("file", new File([mp4Bytes(4096)], "slow #sandbox-slow.mp4", { type: "video/mp4" }));
    const forged = new FormData();
    for (const [name, value] of form) forged.set(name, value);
    forged.set("x-amz-signature", "0".repeat(64));
    const denied = await call("POST", `${SANDBOX}/`, { body: forged });
    expect(denied.status).toBe(403);
    const stored = await call("POST", `${SANDBOX}/`, { body: form });
    expect(stored.status).toBe(204);
    expect((await pinterest(`/v5/media/${media_id}`, token)).body.status).toBe("processing");

    const early = await pinterest("/v5/pins", token, {
      method: "POST",
      body: { board_id: a.board, media_source: { source_type: "video_id", media_id } },
    });
    expect(early.status, JSON.stringify(early.body)).toBe(400);
    expect(early.body).toEqual({ code: 1, message: expect.stringContaining("not processed") });
  });

  it("refuses what Pinterest refuses, in its {code, message}: a board not the user's, no media", async () => {
    const a = await connect();
    const b = await connect();
    const png = await uploadMedia(a, "p.png", "image/png", pngBytes(2048));
    const { rows } = await publish(a, {
      content: [{ text: "Wrong board", media: [png] }],
      settings: { pinterest: { board_id: b.board } },
    });
    expect(rows[0]).toMatchObject({
      status: "FAILED",
      error: { message: expect.stringContaining("Board not found.") },
    });
    expect(await stats(a.handle)).toMatchObject({ publications: 0 });

    const token = await tokenOf(a.accountId);
    const textOnly = await pinterest("/v5/pins", token, {
      method: "POST",
      body: { board_id: a.board, description: "Hi" },
    });
    expect(textOnly.status).toBe(400);
    expect(textOnly.body).toEqual({ code: 1, message: expect.stringContaining("media_source") });
    const noBoard = await pinterest("/v5/pins", token, {
      method: "POST",
      body: { media_source: { source_type: "image_url", url: "https://example.com/a.jpg" } },
    });
    expect(noBoard.status).toBe(400);
    expect(noBoard.body.message).toContain("board_id");
  });

  it("#sandbox-fail: FAILED with Pinterest's message, nothing published", async () => {
    const a = await connect();
    const png = await uploadMedia(a, "p.png", "image/png", pngBytes(2048));
    const { rows } = await publish(a, { content: [{ text: "Nope #sandbox-fail", media: [png] }] });
    expect(rows[0]).toMatchObject({
      status: "FAILED",
      error: { message: expect.stringContaining("#sandbox-fail") },
    });
    expect(await pinsOf(a.handle)).toEqual([]);
  });

  it("#sandbox-lost: the lost answer is found in the user's Pins, published exactly once", async () => {
    const a = await connect();
    const png = await uploadMedia(a, "p.png", "image/png", pngBytes(2048));
    const { id, rows } = await publish(a, { content: [{ text: "Where is it #sandbox-lost", media: [png] }] });
    expect(rows[0]).toMatchObject({ status: "PUBLISHING" });
    await deliver([{ post_id: id }], { attempts: 2 });
    const pins = await pinsOf(a.handle);
    expect(pins).toHaveLength(1);
    expect((await rowsOf(id))[0]).toMatchObject({ status: "PUBLISHED", platform_post_id: pins[0]!.id });
  });

  it("#sandbox-ratelimit: Pinterest's 429 with x-ratelimit headers, retried by the queue after its reset", async () => {
    const a = await connect();
    const token = await tokenOf(a.accountId);
    const limited = await pinterest("/v5/pins", token, {
      method: "POST",
      body: {
        board_id: a.board,
        description: "Probe #sandbox-ratelimit",
        media_source: { source_type: "image_url", url: "https://example.com/a.jpg" },
      },
    });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ code: 8, message: expect.any(String) });
    expect(limited.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(limited.headers.get("x-ratelimit-reset")).toBe("2");

    const png = await uploadMedia(a, "p.png", "image/png", pngBytes(2048));
    const start = Date.now();
    const post = await createPost(a.tenant, {
      accounts: [a.accountId],
      content: [{ text: "Busy #sandbox-ratelimit", media: [png] }],
      settings: { pinterest: { board_id: a.board } },
      publish_now: true,
    });
    const [row] = await settled(post.id, 20_000);
    expect(row).toMatchObject({ attempts: 2, error: null });
    // The probe was refused (nothing created); the post was published once, on its second attempt.
    const pins = await pinsOf(a.handle);
    expect(pins).toHaveLength(1);
    const published = await postJson(row!.platform_post_id!);
    expect(published.text).toEqual(["Busy #sandbox-ratelimit"]);
    expect(Date.now() - start).toBeGreaterThanOrEqual(2000);
  });

  it("insights: the Pin's analytics in Pinterest's metric names, mapped back; only to the owner", async () => {
    const a = await connect();
    const b = await connect();
    const png = await uploadMedia(a, "p.png", "image/png", pngBytes(2048));
    const { id, rows } = await publish(a, { content: [{ text: "Measured", media: [png] }] });
    const pinId = rows[0]!.platform_post_id!;
    const today = new Date().toISOString().slice(0, 10);
    const query = `start_date=${today}&end_date=${today}&metric_types=IMPRESSION,SAVE,PIN_CLICK,OUTBOUND_CLICK,TOTAL_COMMENTS,TOTAL_REACTIONS`;
    const direct = await pinterest(`/v5/pins/${pinId}/analytics?${query}`, await tokenOf(a.accountId));
    expect(direct.status).toBe(200);
    const all = direct.body.all;
    expect(all.summary_metrics.IMPRESSION).toBeGreaterThan(0);
    expect(Object.keys(all.summary_metrics).sort()).toEqual([
      "IMPRESSION",
      "OUTBOUND_CLICK",
      "PIN_CLICK",
      "SAVE",
    ]);
    expect(Object.keys(all.lifetime_metrics).sort()).toEqual(["TOTAL_COMMENTS", "TOTAL_REACTIONS"]);
    expect(all.daily_metrics).toEqual([expect.objectContaining({ date: today, data_status: "READY" })]);

    const synced = await syncPost(a, id);
    expect(synced.platforms[0].analytics).toMatchObject({
      impressions: all.summary_metrics.IMPRESSION,
      saves: all.summary_metrics.SAVE,
      comments: all.lifetime_metrics.TOTAL_COMMENTS,
      likes: all.lifetime_metrics.TOTAL_REACTIONS,
      shares: 0,
    });

    const stranger = await pinterest(`/v5/pins/${pinId}/analytics?${query}`, await tokenOf(b.accountId));
    expect(stranger.status).toBe(403);
    expect(stranger.body).toEqual({ code: 403, message: "Not authorized to access board or Pin." });
    const badRange = await pinterest(
      `/v5/pins/${pinId}/analytics?start_date=2000-01-01&end_date=${today}&metric_types=IMPRESSION`,
      await tokenOf(a.accountId),
    );
    expect(badRange.status).toBe(400);
  });

  it("refreshes through the service's own path: a new refresh token each time, the old one spent", async () => {
    const a = await connect();
    const before = (await stored(a.accountId))!;
    const oldRefresh = await decryptSecret(env.ENCRYPTION_KEY, before.refresh_token_enc);
    await env.DB.prepare("UPDATE accounts SET token_expires_at = ? WHERE id = ?")
      .bind(Date.now() + 60_000, a.accountId)
      .run();
    // Publishing asks for the account's auth: a token expiring within five minutes is refreshed first.
    const png = await uploadMedia(a, "p.png", "image/png", pngBytes(2048));
    const { rows } = await publish(a, { content: [{ text: "Fresh", media: [png] }] });
    expect(rows[0]).toMatchObject({ status: "PUBLISHED" });
    const after = (await stored(a.accountId))!;
    const newRefresh = await decryptSecret(env.ENCRYPTION_KEY, after.refresh_token_enc);
    expect(newRefresh).not.toBe(oldRefresh);
    expect(after.access_token_enc).not.toBe(before.access_token_enc);
    expect(after.token_expires_at).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    expect(await stats(a.handle)).toMatchObject({ token_refreshes: 1 });

    const basic = `Basic ${btoa("sandbox-pinterest-client:sandbox-pinterest-secret")}`;
    const replay = await call("POST", `${SANDBOX}/v5/oauth/token`, {
      headers: { authorization: basic, ...FORM },
      rawBody: `grant_type=refresh_token&refresh_token=${encodeURIComponent(oldRefresh)}`,
    });
    expect(replay.status).toBe(400);
    expect(replay.body).toMatchObject({ code: 283 });
    const fresh = await call("POST", `${SANDBOX}/v5/oauth/token`, {
      headers: { authorization: basic, ...FORM },
      rawBody: `grant_type=refresh_token&refresh_token=${encodeURIComponent(newRefresh)}`,
    });
    expect(fresh.status).toBe(200);
    expect(fresh.body).toMatchObject({
      response_type: "refresh_token",
      token_type: "bearer",
      expires_in: 2_592_000,
      refresh_token_expires_in: 60 * 86_400,
      refresh_token_expires_at: expect.any(Number),
    });
  });

  it("revoked: the next call is refused with Pinterest's 401 and the account needs reconnecting", async () => {
    const a = await connect();
    const revoked = await call("POST", `${SANDBOX}/accounts/${a.handle}/revoke`);
    expect(revoked.status).toBeLessThan(300);
    const refused = await pinterest("/v5/user_account", await tokenOf(a.accountId));
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ code: 2 });

    const png = await uploadMedia(a, "p.png", "image/png", pngBytes(2048));
    const { rows } = await publish(a, { content: [{ text: "After revoke", media: [png] }] });
    expect(rows[0]!.status).not.toBe("PUBLISHED");
    expect(await pinsOf(a.handle)).toEqual([]);
    const account = await call("GET", `/api/v1/accounts/${a.accountId}`, { key: a.tenant.key });
    expect(account.body.health.status).toBe("reauth_required");
  });
});
