// The LinkedIn adapter's publishing against LinkedIn's documented answers: the exact requests for a text
// post and each setting, images (single and multi), a video uploaded part by part from ranges of the
// file, a thread as comments, and every class of failure.
import { describe, expect, it } from "vitest";
import { LINKEDIN_VERSION } from "../../../src/platforms/linkedin/api";
import { memoryProgress } from "../../../src/platforms/progress";
import { PlatformError } from "../../../src/platforms/types";
import { expectSameBytes } from "../../support/bytes";
import { adapterFor, mediaOf, replay } from "../replay";
import {
  ACCESS_TOKEN,
  comment,
  errors,
  etag,
  IMAGE,
  imageStatus,
  imageUpload,
  ORG,
  PERSON,
  PERSON_SUB,
  SHARE,
  UGC_POST,
  VIDEO,
  videoStatus,
  videoUpload,
} from "./recorded";
import {
  answer,
  created,
  draftOf,
  expectRest,
  failureOf,
  jsonOf,
  linkedinAdapter,
  member,
  organization,
  REST,
  stored,
} from "./support";

const DISTRIBUTION = {
  feedDistribution: "MAIN_FEED",
  targetEntities: [],
  thirdPartyDistributionChannels: [],
};

describe("linkedin publish", () => {
  it("creates a text post through the Posts API and reads its URN from x-restli-id", async () => {
    const { fetch, requests } = replay(created(SHARE));
    const post = await adapterFor("linkedin", fetch).publish(
      organization,
      draftOf(["Hello LinkedIn #launch"]),
    );
    expect(post).toEqual({ id: SHARE, url: `https://www.linkedin.com/feed/update/${SHARE}/` });
    const [request] = requests as [Request];
    expectRest(request, "POST", `${REST}/posts`);
    expect(request.headers.get("content-type")).toBe("application/json");
    expect(await jsonOf(request)).toEqual({
      author: ORG,
      commentary: "Hello LinkedIn #launch",
      visibility: "PUBLIC",
      distribution: DISTRIBUTION,
      lifecycleState: "PUBLISHED",
      isReshareDisabledByAuthor: false,
    });
  });

  it("maps visibility and disable_reshare, escapes little-text markup, and posts a bare id as the member", async () => {
    const { fetch, requests } = replay(created(SHARE));
    const account = { ...member, platformUserId: PERSON_SUB };
    const settings = { visibility: "CONNECTIONS", disable_reshare: true, document_title: null };
    await adapterFor("linkedin", fetch).publish(account, draftOf(["Ship it (v2) @team_a *now*"], settings));
    const body = await jsonOf(requests[0]!);
    expect(body).toMatchObject({
      author: PERSON,
      visibility: "CONNECTIONS",
      isReshareDisabledByAuthor: true,
    });
    expect(body.commentary).toBe("Ship it \\(v2\\) \\@team\\_a \\*now\\*");
  });

  it("leaves URLs in the commentary as written, escaping the markup around them", async () => {
    const { fetch, requests } = replay(created(SHARE));
    const text =
      "Notes (see https://example.com/a_b(c)?q=[1]&to=@x~y*z, and www.example.org/~me_2). Thanks @team_a!";
    await adapterFor("linkedin", fetch).publish(organization, draftOf([text]));
    expect((await jsonOf(requests[0]!)).commentary).toBe(
      "Notes \\(see https://example.com/a_b(c)?q=[1]&to=@x~y*z, and www.example.org/~me_2\\). Thanks \\@team\\_a!",
    );
  });

  it("uploads one image (initializeUpload, then its bytes), waits until it is AVAILABLE, and posts it", async () => {
    const { media, bytes, opened } = mediaOf({ mime: "image/png", kind: "image", size: 3000 });
    const { fetch, requests } = replay(
      answer(imageUpload()),
      stored(),
      answer(imageStatus("PROCESSING")),
      answer(imageStatus("AVAILABLE")),
      created(SHARE),
    );
    const progress = memoryProgress();
    await linkedinAdapter(fetch).publish(organization, {
      ...draftOf([{ text: "With a picture", media: [media] }]),
      progress,
    });

    const [init, put, look, again, post] = requests as [Request, Request, Request, Request, Request];
    expectRest(init, "POST", `${REST}/images?action=initializeUpload`);
    expect(await jsonOf(init)).toEqual({ initializeUploadRequest: { owner: ORG } });
    expect(put.method).toBe("PUT");
    expect(put.url).toBe(imageUpload().value.uploadUrl);
    expect(put.headers.get("content-type")).toBe("application/octet-stream");
    expect(put.headers.get("authorization")).toBe(`Bearer ${ACCESS_TOKEN}`);
    await expectSameBytes(new Uint8Array(await put.arrayBuffer()), bytes);
    expect(opened).toEqual([{ offset: 0, length: 3000 }]);
    // Images API: a post may reference the image only once it is AVAILABLE.
    expectRest(look, "GET", `${REST}/images/${encodeURIComponent(IMAGE)}`);
    expect(again.url).toBe(look.url);
    expect((await jsonOf(post)).content).toEqual({ media: { id: IMAGE } });
    // The URN was recorded with its upload URL, then as sent.
    expect(progress.values["media:0"]).toEqual({
      urn: IMAGE,
      uploadUrl: imageUpload().value.uploadUrl,
      expiresAt: imageUpload().value.uploadUrlExpiresAt,
      sent: true,
    });
  });

  it("posts several images as a multiImage post", async () => {
    const first = mediaOf({ mime: "image/jpeg", kind: "image", size: 100 }, 1);
    const second = mediaOf({ mime: "image/jpeg", kind: "image", size: 200 }, 2);
    const other = "urn:li:image:D4E10AQFoyyAjHPMQuR";
    const { fetch, requests } = replay(
      answer(imageUpload()),
      stored(),
      answer(imageStatus("AVAILABLE")),
      answer(imageUpload(other)),
      stored(),
      answer(imageStatus("AVAILABLE", other)),
      created(SHARE),
    );
    const item = { text: "Two pictures", media: [first.media, second.media] };
    await adapterFor("linkedin", fetch).publish(organization, draftOf([item]));
    await expectSameBytes(new Uint8Array(await requests[4]!.arrayBuffer()), second.bytes);
    expect((await jsonOf(requests[6]!)).content).toEqual({
      multiImage: { images: [{ id: IMAGE }, { id: other }] },
    });
  });

  it("an image still processing at the bound ends the attempt (still_processing); the next polls the same URN", async () => {
    const { media } = mediaOf({ mime: "image/png", kind: "image", size: 300 });
    const progress = memoryProgress();
    const draft = { ...draftOf([{ text: "Slow picture", media: [media] }]), progress };
    const first = replay(
      answer(imageUpload()),
      stored(),
      ...[1, 2, 3].map(() => answer(imageStatus("PROCESSING"))),
    );
    const waiting = await failureOf(linkedinAdapter(first.fetch).publish(organization, draft));
    expect(waiting).toMatchObject({ kind: "transient", code: "still_processing", retryAfterSeconds: 30 });
    expect(first.requests.filter((r) => r.url.endsWith("/posts"))).toEqual([]);

    const second = replay(answer(imageStatus("AVAILABLE")), created(SHARE));
    const post = await linkedinAdapter(second.fetch).publish(organization, draft);
    expect(post.id).toBe(SHARE);
    const [look, create] = second.requests as [Request, Request];
    // No second initializeUpload, no second PUT: the recorded image is polled and posted.
    expectRest(look, "GET", `${REST}/images/${encodeURIComponent(IMAGE)}`);
    expect((await jsonOf(create)).content).toEqual({ media: { id: IMAGE } });
  });

  it("resumes an image whose bytes' answer was lost: sent again to the same URL while valid, replaced once expired", async () => {
    const { media } = mediaOf({ mime: "image/png", kind: "image", size: 300 });
    const uploadUrl = imageUpload().value.uploadUrl;
    const valid = memoryProgress({ "media:0": { urn: IMAGE, uploadUrl, expiresAt: Date.now() + 3_600_000 } });
    const again = replay(
      answer(imageStatus("WAITING_UPLOAD")),
      stored(),
      answer(imageStatus("AVAILABLE")),
      created(SHARE),
    );
    await linkedinAdapter(again.fetch).publish(organization, {
      ...draftOf([{ text: "p", media: [media] }]),
      progress: valid,
    });
    expect(again.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      `GET ${REST}/images/${encodeURIComponent(IMAGE)}`,
      `PUT ${uploadUrl}`,
      `GET ${REST}/images/${encodeURIComponent(IMAGE)}`,
      `POST ${REST}/posts`,
    ]);

    // The bytes did arrive (PROCESSING): nothing is sent again.
    const landed = memoryProgress({
      "media:0": { urn: IMAGE, uploadUrl, expiresAt: Date.now() + 3_600_000 },
    });
    const polled = replay(
      answer(imageStatus("PROCESSING")),
      answer(imageStatus("AVAILABLE")),
      created(SHARE),
    );
    await linkedinAdapter(polled.fetch).publish(organization, {
      ...draftOf([{ text: "p", media: [media] }]),
      progress: landed,
    });
    expect(polled.requests.filter((r) => r.method === "PUT" || r.url.includes("initializeUpload"))).toEqual(
      [],
    );

    // Never received and the URL expired: a new image.
    const other = "urn:li:image:D4E10AQFoyyAjHPMQuR";
    const expired = memoryProgress({ "media:0": { urn: IMAGE, uploadUrl, expiresAt: Date.now() - 1 } });
    const replaced = replay(
      answer(imageStatus("WAITING_UPLOAD")),
      answer(imageUpload(other)),
      stored(),
      answer(imageStatus("AVAILABLE", other)),
      created(SHARE),
    );
    await linkedinAdapter(replaced.fetch).publish(organization, {
      ...draftOf([{ text: "p", media: [media] }]),
      progress: expired,
    });
    expect(replaced.requests[1]!.url).toBe(`${REST}/images?action=initializeUpload`);
    expect((await jsonOf(replaced.requests[4]!)).content).toEqual({ media: { id: other } });
    expect(expired.values["media:0"]).toMatchObject({ urn: other, sent: true });
  });

  it("replaces an image LinkedIn could not process once; a second failure is permanent", async () => {
    const { media } = mediaOf({ mime: "image/png", kind: "image", size: 300 });
    const other = "urn:li:image:D4E10AQFoyyAjHPMQuR";
    const { fetch, requests } = replay(
      answer(imageUpload()),
      stored(),
      answer(imageStatus("PROCESSING_FAILED")),
      answer(imageUpload(other)),
      stored(),
      answer(imageStatus("PROCESSING_FAILED", other)),
    );
    const error = await failureOf(
      linkedinAdapter(fetch).publish(organization, draftOf([{ text: "p", media: [media] }])),
    );
    expect(error).toMatchObject({ kind: "permanent", code: "image_processing_failed" });
    expect(requests.filter((r) => r.url.includes("initializeUpload"))).toHaveLength(2);
    expect(requests.filter((r) => r.url.endsWith("/posts"))).toEqual([]);
  });

  it("uploads a video part by part from bounded ranges, finalizes with the ETags, waits for it, then posts", async () => {
    // Over LinkedIn's smallest video (75 KB), which its check refuses before any call.
    const size = 80_000;
    const { media, bytes, opened } = mediaOf({ mime: "video/mp4", kind: "video", size });
    const upload = videoUpload(size, 32_768);
    const { fetch, requests } = replay(
      answer(upload),
      stored(etag(0)),
      stored(etag(1)),
      stored(etag(2)),
      answer(null),
      answer(videoStatus("PROCESSING")),
      answer(videoStatus("AVAILABLE")),
      created(UGC_POST),
    );
    const post = await linkedinAdapter(fetch).publish(
      organization,
      draftOf([{ text: "Watch", media: [media] }]),
    );
    expect(post.id).toBe(UGC_POST);

    const [init, ...rest] = requests as Request[];
    expectRest(init!, "POST", `${REST}/videos?action=initializeUpload`);
    expect(await jsonOf(init!)).toEqual({
      initializeUploadRequest: {
        owner: ORG,
        fileSizeBytes: size,
        uploadCaptions: false,
        uploadThumbnail: false,
      },
    });
    expect(opened).toEqual([
      { offset: 0, length: 32_768 },
      { offset: 32_768, length: 32_768 },
      { offset: 65_536, length: 14_464 },
    ]);
    const parts = rest.slice(0, 3);
    expect(parts.map((p) => [p.method, p.url])).toEqual(
      upload.value.uploadInstructions.map((i) => ["PUT", i.uploadUrl]),
    );
    const sent = await Promise.all(parts.map(async (p) => new Uint8Array(await p.arrayBuffer())));
    await expectSameBytes(new Uint8Array(await new Blob(sent).arrayBuffer()), bytes);

    const [finalize, look, again, postRequest] = rest.slice(3) as [Request, Request, Request, Request];
    expectRest(finalize, "POST", `${REST}/videos?action=finalizeUpload`);
    expect(await jsonOf(finalize)).toEqual({
      finalizeUploadRequest: { video: VIDEO, uploadToken: "", uploadedPartIds: [etag(0), etag(1), etag(2)] },
    });
    expectRest(look, "GET", `${REST}/videos/${encodeURIComponent(VIDEO)}`);
    expect(again.url).toBe(look.url);
    expect((await jsonOf(postRequest)).content).toEqual({ media: { id: VIDEO } });
  });

  it("replaces a video LinkedIn could not process once (then permanent); one still processing ends the attempt, resumable", async () => {
    const video = () => mediaOf({ mime: "video/mp4", kind: "video", size: 80_000 }).media;
    const start = () => [answer(videoUpload(80_000, 131_072)), stored(etag(0)), answer(null)];

    const failed = replay(
      ...start(),
      answer(videoStatus("PROCESSING_FAILED")),
      ...start(),
      answer(videoStatus("PROCESSING_FAILED")),
    );
    const refused = await failureOf(
      linkedinAdapter(failed.fetch).publish(organization, draftOf([{ text: "v", media: [video()] }])),
    );
    expect(refused).toMatchObject({ kind: "permanent", code: "video_processing_failed" });
    expect(failed.requests.filter((r) => r.url.includes("initializeUpload"))).toHaveLength(2);

    const progress = memoryProgress();
    const slow = replay(...start(), ...[1, 2, 3].map(() => answer(videoStatus("PROCESSING"))));
    const waiting = await failureOf(
      linkedinAdapter(slow.fetch).publish(organization, {
        ...draftOf([{ text: "v", media: [video()] }]),
        progress,
      }),
    );
    expect(waiting).toMatchObject({ kind: "transient", code: "still_processing" });
    expect(slow.requests.filter((r) => r.url.endsWith("/posts"))).toEqual([]);
    expect(progress.values["media:0"]).toEqual({ urn: VIDEO, sent: true });

    // The next attempt polls the same video and posts it: no second upload.
    const next = replay(answer(videoStatus("AVAILABLE")), created(UGC_POST));
    const post = await linkedinAdapter(next.fetch).publish(organization, {
      ...draftOf([{ text: "v", media: [video()] }]),
      progress,
    });
    expect(post.id).toBe(UGC_POST);
    expect(next.requests.map((r) => r.method)).toEqual(["GET", "POST"]);
  });

  it("a video whose upload was not finalized is replaced (its part URLs are not kept); one finalized is polled", async () => {
    const { media } = mediaOf({ mime: "video/mp4", kind: "video", size: 80_000 });
    const unfinished = memoryProgress({ "media:0": { urn: VIDEO } });
    const replaced = replay(
      answer(videoStatus("WAITING_UPLOAD")),
      answer(videoUpload(80_000, 131_072)),
      stored(etag(0)),
      answer(null),
      answer(videoStatus("AVAILABLE")),
      created(UGC_POST),
    );
    await linkedinAdapter(replaced.fetch).publish(organization, {
      ...draftOf([{ text: "v", media: [media] }]),
      progress: unfinished,
    });
    expect(replaced.requests[1]!.url).toBe(`${REST}/videos?action=initializeUpload`);

    const finalized = memoryProgress({ "media:0": { urn: VIDEO } });
    const polled = replay(
      answer(videoStatus("PROCESSING")),
      answer(videoStatus("AVAILABLE")),
      created(UGC_POST),
    );
    await linkedinAdapter(polled.fetch).publish(organization, {
      ...draftOf([{ text: "v", media: [media] }]),
      progress: finalized,
    });
    expect(polled.requests.map((r) => r.method)).toEqual(["GET", "GET", "POST"]);
  });

  it("publishes a thread as the post, then each next item as the author's comment under it", async () => {
    const { fetch, requests } = replay(
      created(SHARE),
      answer(comment("111", "Second")),
      answer(comment("222", "Third")),
    );
    const post = await adapterFor("linkedin", fetch).publish(
      organization,
      draftOf(["First", "Second", "Third"]),
    );
    expect(post.id).toBe(SHARE);
    const [, second, third] = requests as [Request, Request, Request];
    expectRest(second, "POST", `${REST}/socialActions/${encodeURIComponent(SHARE)}/comments`);
    expect(await jsonOf(second)).toEqual({ actor: ORG, object: SHARE, message: { text: "Second" } });
    expect((await jsonOf(third)).message).toEqual({ text: "Third" });
  });

  it("refuses, before any call, media LinkedIn cannot carry: a comment with media, a long comment, video with images", async () => {
    const image = mediaOf({ mime: "image/png", kind: "image" }).media;
    const video = mediaOf({ mime: "video/mp4", kind: "video" }).media;
    const drafts = [
      draftOf(["First", { text: "Second", media: [image] }]),
      draftOf(["First", "x".repeat(1251)]),
      draftOf([{ text: "Both", media: [video, image] }]),
    ];
    for (const draft of drafts) {
      const { fetch, requests } = replay();
      const error = await failureOf(adapterFor("linkedin", fetch).publish(organization, draft));
      expect(error).toMatchObject({ kind: "permanent", code: "content_rejected" });
      expect(requests).toEqual([]);
    }
  });

  it("leaves a thread whose comment failed to `find` (unknown outcome): the post exists", async () => {
    const { fetch } = replay(created(SHARE), answer(errors.server, 500));
    const error = await failureOf(
      adapterFor("linkedin", fetch).publish(organization, draftOf(["First", "Second"])),
    );
    expect(error).toMatchObject({ kind: "unknown_outcome", code: "thread_incomplete" });
    expect(error.message).toContain(SHARE);
  });
});

describe("linkedin publish failures", () => {
  const publishWith = (...answers: Array<Response | Error>) =>
    failureOf(adapterFor("linkedin", replay(...answers).fetch).publish(organization, draftOf(["Hello"])));

  it("a duplicate is this row's post only after an attempt that sent the create (a lost answer); else, or for a thread, permanent duplicate_post", async () => {
    // A first attempt refused as a duplicate: the same text published before, by another row.
    const first = await failureOf(
      adapterFor("linkedin", replay(answer(errors.duplicate, 422)).fetch).publish(
        organization,
        draftOf(["Hello"]),
      ),
    );
    expect(first).toMatchObject({ kind: "permanent", code: "duplicate_post" });
    expect(first.message).toContain("LinkedIn refuses the same text posted again");
    // An attempt that sent the create and lost its answer: the next attempt's duplicate is that post.
    const progress = memoryProgress();
    const lost = adapterFor("linkedin", replay(new TypeError("Network connection lost")).fetch);
    await expect(lost.publish(organization, { ...draftOf(["Hello"]), progress })).rejects.toMatchObject({
      kind: "unknown_outcome",
    });
    const adapter = adapterFor("linkedin", replay(answer(errors.duplicate, 422)).fetch);
    const post = await adapter.publish(organization, { ...draftOf(["Hello"]), progress });
    expect(post.id).toBe("urn:li:share:7141138937766391808");
    const error = await failureOf(
      adapterFor("linkedin", replay(answer(errors.duplicate, 422)).fetch).publish(organization, {
        ...draftOf(["Hello", "a comment"]),
        progress,
      }),
    );
    expect(error).toBeInstanceOf(PlatformError);
    expect(error).toMatchObject({ kind: "permanent", code: "duplicate_post" });
    expect(error.message).toContain("Content is a duplicate of urn:li:share:7141138937766391808");
  });

  it("a 426 (the LinkedIn-Version sent is sunset) fails for good, naming the header and the version to move on", async () => {
    const error = await publishWith(answer(errors.sunsetVersion, 426));
    expect(error).toMatchObject({ kind: "permanent", code: "linkedin_version_outdated" });
    expect(error.message).toContain("HTTP 426");
    expect(error.message).toContain(`LinkedIn-Version this service sends (${LINKEDIN_VERSION})`);
    expect(error.message).toContain("LINKEDIN_VERSION");
    expect(error.message).toContain("Requested version 202401 is not active");
  });

  it("a 5xx is transient; a timeout or a lost connection on the creating POST is an unknown outcome", async () => {
    expect(await publishWith(answer(errors.server, 500))).toMatchObject({
      kind: "transient",
      code: "server_error",
    });
    const timeout = new DOMException("The operation was aborted due to timeout", "TimeoutError");
    expect(await publishWith(timeout)).toMatchObject({ kind: "unknown_outcome", code: "timeout" });
    expect(await publishWith(new TypeError("Network connection lost."))).toMatchObject({
      kind: "unknown_outcome",
    });
    // Accepted, but without the post's URN: it may exist.
    expect(await publishWith(new Response(null, { status: 201 }))).toMatchObject({ kind: "unknown_outcome" });
  });

  it("a lost connection while uploading media is only transient: nothing is published yet", async () => {
    const { media } = mediaOf({ mime: "image/png", kind: "image" });
    const { fetch } = replay(answer(imageUpload()), new TypeError("Network connection lost."));
    const error = await failureOf(
      adapterFor("linkedin", fetch).publish(organization, draftOf([{ text: "p", media: [media] }])),
    );
    expect(error).toMatchObject({ kind: "transient", code: "network_error" });
  });

  it("a daily limit (429 without Retry-After) waits until midnight UTC; a Retry-After is honoured", async () => {
    const now = Date.UTC(2026, 10, 22, 21, 30, 0);
    const daily = replay(answer(errors.throttled, 429));
    const error = await failureOf(
      linkedinAdapter(daily.fetch, () => now).publish(organization, draftOf(["Hi"])),
    );
    expect(error).toMatchObject({
      kind: "rate_limited",
      code: "rate_limited",
      retryAfterSeconds: 2.5 * 3600,
    });
    expect(error.message).toContain("APPLICATION DAY limit");
    const brief = await publishWith(answer(errors.throttled, 429, { "retry-after": "120" }));
    expect(brief).toMatchObject({ kind: "rate_limited", retryAfterSeconds: 120 });
  });

  it("an expired or revoked token is an auth failure named by LinkedIn's code", async () => {
    expect(await publishWith(answer(errors.expired, 401))).toMatchObject({
      kind: "auth",
      code: "EXPIRED_ACCESS_TOKEN",
    });
    expect(await publishWith(answer(errors.revoked, 401))).toMatchObject({
      kind: "auth",
      code: "REVOKED_ACCESS_TOKEN",
    });
  });

  it("an account without a token or an id fails before any call", async () => {
    const { fetch, requests } = replay();
    const adapter = adapterFor("linkedin", fetch);
    expect(
      await failureOf(adapter.publish({ ...organization, accessToken: null }, draftOf(["x"]))),
    ).toMatchObject({
      kind: "auth",
    });
    expect(
      await failureOf(adapter.publish({ ...organization, platformUserId: null }, draftOf(["x"]))),
    ).toMatchObject({
      kind: "permanent",
    });
    expect(requests).toEqual([]);
  });
});

describe("linkedin comment calls (Comments API: nested comment, delete as the actor)", () => {
  const POST = "urn:li:activity:6636062862760562688";
  const top = {
    id: `urn:li:comment:(${POST},111)`,
    postId: POST,
    parentId: null,
    isOwn: false,
    hidden: false,
  };
  const reply = {
    id: `urn:li:comment:(${POST},222)`,
    postId: POST,
    parentId: top.id,
    isOwn: true,
    hidden: false,
  };
  const encoded = (urn: string) =>
    encodeURIComponent(urn).replace(/[()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

  it("answers in the top-level comment's collection, naming it parentComment (an answer to an answer too)", async () => {
    const { fetch, requests } = replay(
      answer({ ...comment("333", "Thanks", ORG), parentComment: top.id }, 201),
    );
    const answered = await adapterFor("linkedin", fetch).replyToComment!(organization, reply, "Thanks");
    expect(answered).toEqual({
      id: `urn:li:comment:(${POST},333)`,
      url: `https://www.linkedin.com/feed/update/${POST}/?commentUrn=${encodeURIComponent(`urn:li:comment:(${POST},333)`)}`,
      parentId: top.id,
    });
    expectRest(requests[0]!, "POST", `${REST}/socialActions/${encoded(top.id)}/comments`);
    expect(await jsonOf(requests[0]!)).toEqual({
      actor: ORG,
      object: POST,
      parentComment: top.id,
      message: { text: "Thanks" },
    });
  });

  it("deletes in the comment's collection as the actor; a 404 (already gone) resolves", async () => {
    const { fetch, requests } = replay(
      new Response(null, { status: 204 }),
      answer({ status: 404, message: "Not found" }, 404),
    );
    const adapter = adapterFor("linkedin", fetch);
    await adapter.deleteComment!(organization, reply);
    await expect(adapter.deleteComment!(organization, reply)).resolves.toBeUndefined();
    expectRest(
      requests[0]!,
      "DELETE",
      `${REST}/socialActions/${encoded(top.id)}/comments/222?actor=${encoded(ORG)}`,
    );
  });
});
