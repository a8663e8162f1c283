// The emulator of the Instagram API with Instagram Login (graph.instagram.com, api.instagram.com), as
// developers.facebook.com › Instagram Platform documents it (docs/platforms.md › Instagram › The
// emulator names each page): the code exchange's short-lived token, the long-lived token exchange and
// its refresh (24 hours old at least), /me, content publishing in two steps (a media container from a
// public URL, processed IN_PROGRESS → FINISHED, then media_publish), the publishing quota, the account's
// media, a media's fields, insights (owner only) and comments, Meta's error body and its rate limits.
import type { Context } from "hono";
import type { BareEnv } from "../../http/env";
import { utf8 } from "../../lib/encoding";
import { digits, letters } from "../../platforms/sandbox/ids";
import {
  type Caller,
  type Emulated,
  emulate,
  emulatorRouter,
  type LedgerObject,
  type LedgerPost,
  lostAnswer,
  refuse,
} from "../emulator";
import {
  type ContainerStage,
  carouselChildren,
  containerStage,
  fetchable,
  forAccount,
  graphParams,
  graphTime,
  type MetaDialect,
  type MetaError,
  mediaTypeOf,
  metaFormat,
  ownNode,
  page,
  pick,
  required,
  unsupported,
  VERSION,
} from "../meta-graph";
import { growingIds } from "../meta-ids";
import { exchangeCode, exchangeToken, refreshToken } from "../meta-tokens";

type Ctx = Context<BareEnv>;

/** A caption's length, and its hashtags and @ tags (IG User Media › caption). */
export const CAPTION_MAX = 2200;
const HASHTAGS_MAX = 30;
const MENTIONS_MAX = 20;
/** How long a story has insights (Instagram Media Insights › Limitations). */
const STORY_INSIGHTS_MS = 24 * 3_600_000;
/** A carousel's children (IG User Media › children). */
const CAROUSEL = { min: 2, max: 10 };
/** API-published posts in a moving 24 hours (IG User Content Publishing Limit). */
export const QUOTA_TOTAL = 100;
const QUOTA_SECONDS = 86_400;
/**
 * A carousel's photo is fetched and processed asynchronously like any container: it is IN_PROGRESS this
 * long after it is made, so a carousel made of children whose status was not checked is refused (9007).
 */
export const CAROUSEL_PHOTO_PROCESSING_MS = 1_000;

const usage = (minutes: number) => ({
  call_count: 100,
  total_cputime: 4,
  total_time: 4,
  estimated_time_to_regain_access: minutes,
});

export const INSTAGRAM_DIALECT: MetaDialect = {
  apiException: "OAuthException",
  // "We restrict certain activity to protect our community" (Error Codes: 4 / 2207051).
  rejected: { code: 4, subcode: 2_207_051, title: "Action restricted" },
  // "Instagram server error. Try again." (Error Codes: -1 / 2207001).
  unavailable: { status: 400, code: -1, subcode: 2_207_001 },
  rateLimit(problem, minutes): MetaError {
    if (problem.code === 9)
      return {
        status: 400,
        type: "OAuthException",
        code: 9,
        subcode: 2_207_042,
        message: problem.message,
        title: "Publishing limit reached",
      };
    // Business Use Case rate limits: code 80002 with X-Business-Use-Case-Usage keyed by the account.
    return {
      status: 400,
      type: "OAuthException",
      code: 80_002,
      transient: true,
      message: `There have been too many calls to this Instagram account. Wait a bit and try again. ${problem.message}`,
      headers: {
        "x-business-use-case-usage": JSON.stringify({
          [problem.account ?? "0"]: [{ type: "instagram", ...usage(minutes) }],
        }),
      },
    };
  },
};

/** A fresh Instagram media or container id: 17 digits, growing with time as Instagram's do. */
const mediaId = growingIds("18", 17);

type Container = {
  media_type: "IMAGE" | "VIDEO" | "REELS" | "STORIES" | "CAROUSEL";
  is_carousel_item: boolean;
  caption: string;
  url: string;
  kind: "image" | "video";
  /** What Instagram received for the container, as it was sent. */
  request: Record<string, string>;
  children?: string[];
  error?: string;
  published_id?: string;
  published_at?: number;
};

const containerOf = (object: LedgerObject) => object.data as unknown as Container;

/** IG Container › status_code's `status` text, by stage (an ERROR's is its error). */
const STATUS_TEXT: Record<Exclude<ContainerStage, "ERROR">, string> = {
  PUBLISHED: "Published: Media has been published.",
  EXPIRED: "Expired",
  IN_PROGRESS: "In Progress: Media is still being processed.",
  FINISHED: "Finished: Media has been uploaded and it is ready to be published.",
};

/** IG Container › status_code: PUBLISHED, EXPIRED, ERROR, IN_PROGRESS or FINISHED. */
function statusOf(object: LedgerObject): { status_code: string; status: string } {
  const stage = containerStage(object);
  const container = containerOf(object);
  return {
    status_code: stage,
    status: stage === "ERROR" ? (container.error ?? "Error") : STATUS_TEXT[stage],
  };
}

/** Who a media is, as the ledger keeps it: its container request says its type and product. */
function mediaFacts(post: LedgerPost) {
  const request = (post.platform_request ?? {}) as { media?: Record<string, string> };
  const type = (request.media?.media_type ?? "IMAGE").toUpperCase();
  const product = type === "REELS" ? "REELS" : type === "STORIES" ? "STORY" : "FEED";
  const mediaType =
    type === "CAROUSEL"
      ? "CAROUSEL_ALBUM"
      : type === "REELS" || type === "VIDEO"
        ? "VIDEO"
        : post.media[0]?.type.startsWith("video/")
          ? "VIDEO"
          : "IMAGE";
  return { product, mediaType };
}

/** The metric names Instagram Media Insights accepts for each media product type. */
const METRICS: Record<string, readonly string[]> = {
  FEED: [
    "comments",
    "follows",
    "likes",
    "profile_activity",
    "profile_visits",
    "reach",
    "saved",
    "shares",
    "total_interactions",
    "views",
  ],
  REELS: [
    "comments",
    "ig_reels_avg_watch_time",
    "ig_reels_video_view_total_time",
    "likes",
    "reach",
    "saved",
    "shares",
    "total_interactions",
    "views",
  ],
  STORY: [
    "follows",
    "navigation",
    "profile_activity",
    "profile_visits",
    "reach",
    "replies",
    "shares",
    "total_interactions",
    "views",
  ],
};
const TITLES: Record<string, string> = {
  comments: "Comments",
  follows: "Follows",
  likes: "Likes",
  profile_activity: "Profile activity",
  profile_visits: "Profile visits",
  reach: "Accounts reached",
  saved: "Saves",
  shares: "Shares",
  total_interactions: "Interactions",
  views: "Views",
  navigation: "Navigation",
  replies: "Replies",
  ig_reels_avg_watch_time: "Average watch time",
  ig_reels_video_view_total_time: "Total watch time",
};

export const instagramEmulator = emulatorRouter(metaFormat(INSTAGRAM_DIALECT));

instagramEmulator
  // api.instagram.com: the code for a short-lived token, refused in this endpoint's own shape.
  .post("/oauth/access_token", (c) =>
    exchangeCode(c.req.raw, emulate(c, "instagram"), (message) =>
      Response.json({ error_type: "OAuthException", code: 400, error_message: message }, { status: 400 }),
    ),
  )
  .get("/access_token", async (c) =>
    c.json(await exchangeToken(emulate(c, "instagram"), c.req.url, "ig_exchange_token")),
  )
  .get("/refresh_access_token", async (c) =>
    c.json(await refreshToken(emulate(c, "instagram"), c.req.url, "ig_refresh_token")),
  )
  .get(`/${VERSION}/me`, async (c) => {
    const emu = emulate(c, "instagram");
    const caller = await emu.caller();
    const appScoped = digits(
      new Uint8Array(await crypto.subtle.digest("SHA-256", utf8(`app-scoped:${caller.handle}`))),
      17,
    );
    const posts = await emu.posts(caller.handle);
    const me = {
      id: appScoped,
      user_id: caller.platformId,
      username: caller.handle,
      name: caller.handle,
      account_type: "BUSINESS",
      profile_picture_url: `${emu.base}/media/profile`,
      followers_count: 0,
      follows_count: 0,
      media_count: posts.length,
    };
    return c.json(pick(me, c.req.query("fields"), []));
  })
  .get(`/${VERSION}/:id/content_publishing_limit`, async (c) => {
    const emu = emulate(c, "instagram");
    const caller = await emu.caller();
    ownNode(caller, c.req.param("id"));
    const used = await quotaUsage(emu, caller.handle);
    const entry = { quota_usage: used, config: { quota_total: QUOTA_TOTAL, quota_duration: QUOTA_SECONDS } };
    const fields = (c.req.query("fields") ?? "quota_usage").split(",");
    const out: Record<string, unknown> = {};
    if (fields.includes("quota_usage")) out.quota_usage = entry.quota_usage;
    if (fields.includes("config")) out.config = entry.config;
    return c.json({ data: [out] });
  })
  .post(`/${VERSION}/:id/media`, async (c) => {
    const emu = emulate(c, "instagram");
    const caller = await emu.caller();
    ownNode(caller, c.req.param("id"));
    const params = await graphParams(c.req.raw);
    const container = await newContainer(emu, caller, params);
    const object = await emu.createObject({
      id: mediaId(),
      handle: caller.handle,
      kind: "container",
      data: container as unknown as Record<string, unknown>,
      // Photos are ready at once, but for a carousel's (a moment); #sandbox-slow keeps any container
      // processing for 150 s.
      readyAt: emu.readyAt(
        container.caption,
        container.is_carousel_item && container.media_type !== "VIDEO" ? CAROUSEL_PHOTO_PROCESSING_MS : 0,
      ),
    });
    return c.json({ id: object.id });
  })
  .post(`/${VERSION}/:id/media_publish`, async (c) => {
    const emu = emulate(c, "instagram");
    const caller = await emu.caller();
    ownNode(caller, c.req.param("id"));
    const params = await graphParams(c.req.raw);
    return forAccount(INSTAGRAM_DIALECT, caller.platformId, () => publishContainer(c, emu, caller, params));
  })
  .get(`/${VERSION}/:id/media`, async (c) => {
    const emu = emulate(c, "instagram");
    const caller = await emu.caller();
    ownNode(caller, c.req.param("id"));
    // Newest first; stories are not listed here.
    const posts = (await emu.posts(caller.handle)).reverse();
    const fields = c.req.query("fields");
    const listed = await Promise.all(
      posts.map(async (post) => pick(await mediaObject(emu, post), fields, [])),
    );
    return c.json(page(c.req.url, listed));
  })
  .get(`/${VERSION}/:id/insights`, async (c) => {
    const emu = emulate(c, "instagram");
    const caller = await emu.caller();
    const id = c.req.param("id");
    const post = await emu.post(id);
    if (!post || post.parent_id !== null) return unsupported(id);
    if (post.handle !== caller.handle)
      return refuse(400, "forbidden", "Application does not have permission for this action", { code: 10 });
    const metric = c.req.query("metric");
    if (!metric) return required("metric");
    const { product } = mediaFacts(post);
    const allowed = METRICS[product]!;
    const names = metric.split(",").map((name) => name.trim());
    names.forEach((name, index) => {
      if (!allowed.includes(name))
        refuse(
          400,
          "invalid_request",
          `(#100) metric[${index}] must be one of the following values: ${allowed.join(", ")}`,
        );
    });
    // Story metrics are only available for 24 hours; unavailable insights are an empty data set, not
    // 0s (Instagram Media Insights › Limitations).
    if (product === "STORY" && Date.now() - Date.parse(post.published_at) > STORY_INSIGHTS_MS)
      return c.json({ data: [] });
    const values = await insightValues(emu, post);
    return c.json({
      data: names.map((name) => ({
        name,
        period: "lifetime",
        values: [{ value: values[name] ?? 0 }],
        title: TITLES[name] ?? name,
        description: `${TITLES[name] ?? name} of the media.`,
        id: `${id}/insights/${name}/lifetime`,
      })),
    });
  })
  .get(`/${VERSION}/:id/comments`, async (c) => {
    const emu = emulate(c, "instagram");
    await emu.caller();
    const id = c.req.param("id");
    const post = await emu.post(id);
    if (!post || post.parent_id !== null) return unsupported(id);
    const fields = c.req.query("fields");
    const all = (await commentsOf(emu, post)).map((comment) => pick(comment, fields, ["text", "timestamp"]));
    return c.json(page(c.req.url, all));
  })
  .post(`/${VERSION}/:id/comments`, async (c) => {
    const emu = emulate(c, "instagram");
    const caller = await emu.caller();
    const id = c.req.param("id");
    const params = await graphParams(c.req.raw);
    const post = await emu.post(id);
    if (!post || post.parent_id !== null) return unsupported(id);
    const message = params.get("message") ?? "";
    if (!message.trim()) return required("message");
    if ([...message].length > CAPTION_MAX)
      return refuse(400, "invalid_request", `(#100) The comment is longer than ${CAPTION_MAX} characters.`);
    return forAccount(INSTAGRAM_DIALECT, caller.platformId, async () => {
      const outcome = await emu.attempt(caller.handle, `comment:${id}:${message}`, message);
      const stored = await emu.publish({
        id: mediaId(),
        handle: caller.handle,
        parentId: id,
        items: [{ text: message, media: [] }],
        platformRequest: { message },
      });
      return outcome === "lost" ? lostAnswer() : c.json({ id: stored.id });
    });
  })
  .get(`/${VERSION}/:id`, async (c) => {
    const emu = emulate(c, "instagram");
    const caller = await emu.caller();
    const id = c.req.param("id");
    const fields = c.req.query("fields");
    const object = await emu.object(id);
    if (object?.kind === "container") {
      if (object.handle !== caller.handle) return unsupported(id);
      return c.json(pick({ id, ...statusOf(object) }, fields, []));
    }
    const post = await emu.post(id);
    if (!post || post.handle !== caller.handle) return unsupported(id);
    if (post.parent_id !== null) {
      // A comment of the account's.
      return c.json(
        pick(
          { id, text: post.text[0] ?? "", username: caller.handle, timestamp: graphTime(post.published_at) },
          fields,
          [],
        ),
      );
    }
    return c.json(pick(await mediaObject(emu, post), fields, []));
  })
  .all(`/${VERSION}/*`, (c) => {
    const path = new URL(c.req.url).pathname.replace(/^\/sandbox\/instagram\/v[0-9.]+/, "");
    return refuse(400, "invalid_request", `Unknown path components: ${path}`, { code: 2500 });
  });

/** The account's API-published posts of the last 24 hours (carousels count once; comments not at all). */
async function quotaUsage(emu: Emulated, handle: string) {
  const since = Date.now() - QUOTA_SECONDS * 1000;
  const objects = await emu.objects(handle, "container");
  return objects.filter((object) => {
    const container = containerOf(object);
    return container.published_at !== undefined && container.published_at >= since;
  }).length;
}

/** A media container from the call's parameters, refused the way Instagram refuses it. */
async function newContainer(emu: Emulated, caller: Caller, params: URLSearchParams): Promise<Container> {
  const request = Object.fromEntries(params);
  delete request.access_token;
  const type = (params.get("media_type") ?? "IMAGE").toUpperCase();
  const caption = params.get("caption") ?? "";
  const carouselItem = params.get("is_carousel_item") === "true";
  if ([...caption].length > CAPTION_MAX)
    refuse(400, "invalid_request", `(#100) The caption is longer than ${CAPTION_MAX} characters.`);
  if ((caption.match(/(^|\s)#\w/g) ?? []).length > HASHTAGS_MAX)
    refuse(400, "invalid_request", `(#100) The caption has more than ${HASHTAGS_MAX} hashtags.`);
  if ((caption.match(/(^|\s)@\w/g) ?? []).length > MENTIONS_MAX)
    refuse(400, "invalid_request", `(#100) The caption has more than ${MENTIONS_MAX} @ tags.`);
  const collaborators = params.get("collaborators");
  if (collaborators) {
    let list: unknown;
    try {
      list = JSON.parse(collaborators);
    } catch {
      list = null;
    }
    if (!Array.isArray(list) || list.length > 3 || !list.every((name) => typeof name === "string"))
      refuse(400, "invalid_request", "(#100) collaborators must be a list of up to 3 usernames.");
  }
  const base = { caption: carouselItem ? "" : caption, is_carousel_item: carouselItem, request };
  const media = (kind: "image" | "video"): Pick<Container, "url" | "kind" | "error"> => {
    const url = params.get(kind === "image" ? "image_url" : "video_url");
    if (!url) return required(kind === "image" ? "image_url" : "video_url");
    // Instagram fetches the media itself: a URL it cannot reach fails the container (2207052).
    return fetchable(url) ? { url, kind } : { url, kind, error: "ERROR: 2207052" };
  };
  switch (type) {
    case "IMAGE":
      return { media_type: "IMAGE", ...base, ...media("image") };
    case "STORIES":
      return {
        media_type: "STORIES",
        ...base,
        caption: "",
        ...(params.get("video_url") ? media("video") : media("image")),
      };
    case "REELS":
      if (carouselItem) refuse(400, "invalid_request", "(#100) A carousel item cannot be a reel; use VIDEO.");
      return { media_type: "REELS", ...base, ...media("video") };
    case "VIDEO":
      if (!carouselItem)
        refuse(
          400,
          "invalid_request",
          "(#100) The VIDEO media type is only for carousel items; publish a single video as REELS.",
        );
      return { media_type: "VIDEO", ...base, ...media("video") };
    case "CAROUSEL": {
      const children = await carouselChildren(emu, caller, params, CAROUSEL, () =>
        refuse(400, "not_ready", "The media is not ready for publishing, please wait for a moment", {
          code: 9007,
        }),
      );
      return { media_type: "CAROUSEL", ...base, url: "", kind: "image", children };
    }
    default:
      return refuse(
        400,
        "invalid_request",
        `(#100) media_type must be one of IMAGE, REELS, STORIES, VIDEO or CAROUSEL.`,
      );
  }
}

/** POST /<IG_ID>/media_publish: the FINISHED container becomes a media (once), within the quota. */
async function publishContainer(c: Ctx, emu: Emulated, caller: Caller, params: URLSearchParams) {
  const creationId = params.get("creation_id");
  if (!creationId) return required("creation_id");
  const object = await emu.object(creationId);
  if (object?.kind !== "container" || object.handle !== caller.handle) return unsupported(creationId);
  const container = containerOf(object);
  if (container.is_carousel_item)
    return refuse(400, "invalid_request", "(#100) A carousel item cannot be published on its own.");
  const { status_code } = statusOf(object);
  if (status_code === "PUBLISHED")
    return refuse(400, "invalid_request", "(#100) The media container has already been published.");
  if (status_code === "EXPIRED")
    return refuse(
      400,
      "not_ready",
      "The media you are trying to access has expired. Please try to upload again.",
      { code: -2 },
    );
  if (status_code === "ERROR")
    return refuse(
      400,
      "rejected",
      "Media download has failed. The media URI doesn't meet our requirements.",
      { code: 9004 },
    );
  if (status_code === "IN_PROGRESS")
    return refuse(400, "not_ready", "The media is not ready for publishing, please wait for a moment", {
      code: 9007,
    });
  if ((await quotaUsage(emu, caller.handle)) >= QUOTA_TOTAL)
    return refuse(
      400,
      "rate_limited",
      "You reached maximum number of posts that is allowed to be published by API in 24 hours.",
      {
        code: 9,
        retryAfterSeconds: 3600,
      },
    );
  const outcome = await emu.attempt(caller.handle, `publish:${container.caption}`, container.caption);
  const children = await Promise.all(
    (container.children ?? []).map(async (id) => containerOf((await emu.object(id))!)),
  );
  const parts = container.media_type === "CAROUSEL" ? children : [container];
  const stored = await emu.publish({
    id: mediaId(),
    handle: caller.handle,
    // Stories are not listed on the account's media edge.
    visible: container.media_type !== "STORIES",
    items: [
      {
        text: container.caption,
        media: parts.map((part) => ({ url: part.url, type: mediaTypeOf(part.url, part.kind) })),
      },
    ],
    platformRequest: {
      media: container.request,
      ...(children.length ? { children: children.map((child) => child.request) } : {}),
      media_publish: { creation_id: creationId },
    },
  });
  await emu.updateObject(creationId, { published_id: stored.id, published_at: Date.now() });
  return outcome === "lost" ? lostAnswer() : c.json({ id: stored.id });
}

/** A media as the Graph API shows it (Instagram Media › fields). */
async function mediaObject(emu: Emulated, post: LedgerPost) {
  const { product, mediaType } = mediaFacts(post);
  const metrics = await emu.metrics(post.id);
  const own = await emu.replies(post.id);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", utf8(`shortcode:${post.id}`)));
  return {
    id: post.id,
    caption: post.text[0] || undefined,
    media_type: mediaType,
    media_product_type: product,
    media_url: post.media[0]?.url,
    permalink: emu.postUrl(post.id),
    shortcode: letters(digest, 11),
    timestamp: graphTime(post.published_at),
    username: post.handle,
    owner: { id: await emu.platformId(post.handle) },
    like_count: metrics?.likes ?? 0,
    comments_count: (metrics?.comments ?? 0) + own.length,
    is_comment_enabled: true,
  };
}

/** Comments on a media, newest first: everyone's (made up over time) and the account's own. */
async function commentsOf(emu: Emulated, post: LedgerPost) {
  const others = ((await emu.comments(post.id)) ?? []).map((comment) => ({
    id: comment.id,
    text: comment.text,
    username: comment.author.username,
    from: { id: comment.id.slice(0, 17), username: comment.author.username },
    timestamp: graphTime(comment.created_at),
    like_count: 0,
    at: comment.created_at,
  }));
  const own = await Promise.all(
    (await emu.replies(post.id)).map(async (reply) => ({
      id: reply.id,
      text: reply.text[0] ?? "",
      username: reply.handle,
      from: { id: await emu.platformId(reply.handle), username: reply.handle },
      timestamp: graphTime(reply.published_at),
      like_count: 0,
      at: Date.parse(reply.published_at),
    })),
  );
  return [...others, ...own].sort((a, b) => b.at - a.at).map(({ at: _at, ...comment }) => comment);
}

/** Every metric's value now, in Instagram's names, from the sandbox's generic metrics. */
async function insightValues(emu: Emulated, post: LedgerPost): Promise<Record<string, number>> {
  const m = (await emu.metrics(post.id))!;
  const comments = m.comments + (await emu.replies(post.id)).length;
  const visits = Math.floor(m.impressions / 50);
  return {
    views: m.impressions,
    reach: Math.max(1, Math.floor(m.impressions * 0.8)),
    likes: m.likes,
    comments,
    shares: m.shares,
    saved: m.saves,
    total_interactions: m.likes + comments + m.shares + m.saves,
    follows: Math.floor(m.likes / 20),
    profile_visits: visits,
    profile_activity: visits,
    navigation: 0,
    replies: 0,
    ig_reels_avg_watch_time: 4_000 + (m.impressions % 9_000),
    ig_reels_video_view_total_time: m.impressions * 4_000,
  };
}
