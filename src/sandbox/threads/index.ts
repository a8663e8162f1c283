// The emulator of the Threads API (graph.threads.net), as developers.facebook.com › Threads documents it
// (docs/platforms.md › Threads › The emulator names each page): the code exchange's short-lived token,
// the long-lived token exchange and its refresh (24 hours old at least), /me, posts in two steps (a
// container TEXT, IMAGE, VIDEO or CAROUSEL, processed IN_PROGRESS → FINISHED, then threads_publish),
// replies with reply_to_id, the account's threads, a post's fields, replies and conversation (public),
// insights (owner only), Meta's error body and its rate limits.
import type { Context } from "hono";
import type { BareEnv } from "../../http/env";
import { utf8 } from "../../lib/encoding";
import { letters } from "../../platforms/sandbox/ids";
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
  carouselChildren,
  containerStage,
  fetchable,
  forAccount,
  graphParams,
  graphTime,
  type MetaDialect,
  type MetaError,
  mediaTypeOf,
  metaErrorResponse,
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

/** Characters of a post's text (Threads › Posts › text). */
export const TEXT_MAX = 500;
/** A carousel's children (Threads › Posts › Carousel posts). */
const CAROUSEL = { min: 2, max: 20 };
const TOPIC_TAG_MAX = 50;
const REPLY_CONTROLS = [
  "everyone",
  "accounts_you_follow",
  "mentioned_only",
  "parent_post_author_only",
  "followers_only",
];

export const THREADS_DIALECT: MetaDialect = {
  apiException: "THApiException",
  rejected: { code: 100 },
  unavailable: { status: 503, code: 2 },
  // A user token's calls are under the Graph API's platform rate limits: code 4 with X-App-Usage.
  rateLimit(problem): MetaError {
    return {
      status: 400,
      type: "OAuthException",
      code: 4,
      transient: true,
      message: `(#4) Application request limit reached. ${problem.message}`,
      headers: { "x-app-usage": JSON.stringify({ call_count: 100, total_cputime: 10, total_time: 10 }) },
    };
  },
};

/** A fresh Threads post or container id: 18 digits, growing with time as Threads' do. */
const mediaId = growingIds("17", 18);

type Container = {
  media_type: "TEXT" | "IMAGE" | "VIDEO" | "CAROUSEL";
  text: string;
  url: string;
  kind: "image" | "video" | "none";
  is_carousel_item: boolean;
  reply_to_id?: string;
  children?: string[];
  request: Record<string, string>;
  error?: string;
  published_id?: string;
};

const containerOf = (object: LedgerObject) => object.data as unknown as Container;

/** Threads › Troubleshooting › container status: PUBLISHED, EXPIRED, ERROR, IN_PROGRESS or FINISHED. */
function statusOf(object: LedgerObject): { status: string; error_message?: string } {
  const status = containerStage(object);
  const error = containerOf(object).error;
  return status === "ERROR" && error ? { status, error_message: error } : { status };
}

const METRICS = ["views", "likes", "replies", "reposts", "quotes", "shares"] as const;

export const threadsEmulator = emulatorRouter(metaFormat(THREADS_DIALECT));

threadsEmulator
  .post("/oauth/access_token", (c) =>
    exchangeCode(c.req.raw, emulate(c, "threads"), (message) =>
      metaErrorResponse({ status: 400, type: "OAuthException", code: 100, message }),
    ),
  )
  .get("/access_token", async (c) =>
    c.json(await exchangeToken(emulate(c, "threads"), c.req.url, "th_exchange_token")),
  )
  .get("/refresh_access_token", async (c) =>
    c.json(await refreshToken(emulate(c, "threads"), c.req.url, "th_refresh_token")),
  )
  .get(`/${VERSION}/me`, async (c) => {
    const emu = emulate(c, "threads");
    const caller = await emu.caller();
    const me = {
      id: caller.platformId,
      username: caller.handle,
      name: caller.handle,
      threads_profile_picture_url: `${emu.base}/media/profile`,
      threads_biography: "",
    };
    return c.json(pick(me, c.req.query("fields"), []));
  })
  .post(`/${VERSION}/:id/threads`, async (c) => {
    const emu = emulate(c, "threads");
    const caller = await emu.caller();
    ownNode(caller, c.req.param("id"));
    const container = await newContainer(emu, caller, await graphParams(c.req.raw));
    const object = await emu.createObject({
      id: mediaId(),
      handle: caller.handle,
      kind: "container",
      data: container as unknown as Record<string, unknown>,
      readyAt: emu.readyAt(container.text),
      // A text post uploads nothing.
      upload: container.kind !== "none",
    });
    return c.json({ id: object.id });
  })
  .post(`/${VERSION}/:id/threads_publish`, async (c) => {
    const emu = emulate(c, "threads");
    const caller = await emu.caller();
    ownNode(caller, c.req.param("id"));
    const params = await graphParams(c.req.raw);
    return forAccount(THREADS_DIALECT, caller.platformId, () => publishContainer(c, emu, caller, params));
  })
  .get(`/${VERSION}/:id/threads`, async (c) => {
    const emu = emulate(c, "threads");
    const caller = await emu.caller();
    ownNode(caller, c.req.param("id"));
    const posts = (await emu.posts(caller.handle)).reverse();
    const fields = c.req.query("fields");
    const listed = await Promise.all(
      posts.map(async (post) => pick(await threadObject(emu, post, caller), fields, [])),
    );
    return c.json(page(c.req.url, listed));
  })
  .get(`/${VERSION}/:id/replies`, async (c) => {
    const emu = emulate(c, "threads");
    const caller = await emu.caller();
    const post = await knownPost(emu, c.req.param("id"));
    const replies = await repliesOf(emu, post, caller, false);
    return c.json(
      page(
        c.req.url,
        ordered(c, replies).map((reply) => pick(reply, c.req.query("fields"), [])),
      ),
    );
  })
  .get(`/${VERSION}/:id/conversation`, async (c) => {
    const emu = emulate(c, "threads");
    const caller = await emu.caller();
    const post = await knownPost(emu, c.req.param("id"));
    const replies = await repliesOf(emu, post, caller, true);
    return c.json(
      page(
        c.req.url,
        ordered(c, replies).map((reply) => pick(reply, c.req.query("fields"), [])),
      ),
    );
  })
  .get(`/${VERSION}/:id/insights`, async (c) => {
    const emu = emulate(c, "threads");
    const caller = await emu.caller();
    const id = c.req.param("id");
    const post = await knownPost(emu, id);
    if (post.handle !== caller.handle)
      return refuse(400, "forbidden", "Application does not have permission for this action", { code: 10 });
    const metric = c.req.query("metric");
    if (!metric) return required("metric");
    const names = metric.split(",").map((name) => name.trim());
    names.forEach((name, index) => {
      if (!(METRICS as readonly string[]).includes(name))
        refuse(
          400,
          "invalid_request",
          `(#100) metric[${index}] must be one of the following values: ${METRICS.join(", ")}`,
        );
    });
    const m = (await emu.metrics(id))!;
    const reposts = Math.floor(m.shares / 2);
    const values: Record<string, number> = {
      views: m.impressions,
      likes: m.likes,
      replies: m.comments + (await emu.replies(id)).length,
      reposts,
      quotes: m.quotes,
      shares: m.shares - reposts,
    };
    return c.json({
      data: names.map((name) => ({
        name,
        period: "lifetime",
        values: [{ value: values[name] ?? 0 }],
        title: name[0]!.toUpperCase() + name.slice(1),
        description: `The number of ${name} of the post.`,
        id: `${id}/insights/${name}/lifetime`,
      })),
    });
  })
  .get(`/${VERSION}/:id`, async (c) => {
    const emu = emulate(c, "threads");
    const caller = await emu.caller();
    const id = c.req.param("id");
    const fields = c.req.query("fields");
    const object = await emu.object(id);
    if (object?.kind === "container") {
      if (object.handle !== caller.handle) return unsupported(id);
      return c.json(pick({ id, ...statusOf(object) }, fields, ["status"]));
    }
    const post = await knownPost(emu, id);
    return c.json(pick(await threadObject(emu, post, caller), fields, []));
  })
  .all(`/${VERSION}/*`, (c) => {
    const path = new URL(c.req.url).pathname.replace(/^\/sandbox\/threads\/v[0-9.]+/, "");
    return refuse(400, "invalid_request", `Unknown path components: ${path}`, { code: 2500 });
  });

/** A published post (or reply) by id, else Meta's unsupported request. */
async function knownPost(emu: Emulated, id: string): Promise<LedgerPost> {
  const post = await emu.post(id);
  return post ?? unsupported(id);
}

/** A container from the call's parameters, refused the way Threads refuses it. */
async function newContainer(emu: Emulated, caller: Caller, params: URLSearchParams): Promise<Container> {
  const request = Object.fromEntries(params);
  delete request.access_token;
  const type = params.get("media_type");
  if (!type) return required("media_type");
  const text = params.get("text") ?? "";
  const carouselItem = params.get("is_carousel_item") === "true";
  if ([...text].length > TEXT_MAX)
    refuse(400, "invalid_request", `(#100) The text is longer than ${TEXT_MAX} characters.`);
  const control = params.get("reply_control");
  if (control && !REPLY_CONTROLS.includes(control))
    refuse(400, "invalid_request", `(#100) reply_control must be one of ${REPLY_CONTROLS.join(", ")}.`);
  const topic = params.get("topic_tag");
  if (topic !== null && (topic.length < 1 || topic.length > TOPIC_TAG_MAX || /[.&]/.test(topic)))
    refuse(
      400,
      "invalid_request",
      `(#100) topic_tag must be 1 to ${TOPIC_TAG_MAX} characters, without periods or ampersands.`,
    );
  const replyTo = params.get("reply_to_id") ?? undefined;
  if (replyTo) {
    const parent = await emu.post(replyTo);
    if (!parent) unsupported(replyTo);
  }
  const base = {
    text,
    is_carousel_item: carouselItem,
    request,
    ...(replyTo ? { reply_to_id: replyTo } : {}),
  };
  const media = (kind: "image" | "video"): Pick<Container, "url" | "kind" | "error"> => {
    const url = params.get(kind === "image" ? "image_url" : "video_url");
    if (!url) return required(kind === "image" ? "image_url" : "video_url");
    return fetchable(url)
      ? { url, kind }
      : { url, kind, error: kind === "video" ? "FAILED_DOWNLOADING_VIDEO" : "UNKNOWN" };
  };
  switch (type) {
    case "TEXT":
      if (carouselItem) refuse(400, "invalid_request", "(#100) A carousel item must be an IMAGE or a VIDEO.");
      if (!text.trim()) return required("text");
      return { media_type: "TEXT", ...base, url: "", kind: "none" };
    case "IMAGE":
      return { media_type: "IMAGE", ...base, ...media("image") };
    case "VIDEO":
      return { media_type: "VIDEO", ...base, ...media("video") };
    case "CAROUSEL": {
      const children = await carouselChildren(emu, caller, params, CAROUSEL, () =>
        refuse(400, "not_ready", "(#24) The media is not ready to be published yet.", { code: 24 }),
      );
      return { media_type: "CAROUSEL", ...base, url: "", kind: "none", children };
    }
    default:
      return refuse(
        400,
        "invalid_request",
        "(#100) media_type must be one of TEXT, IMAGE, VIDEO or CAROUSEL.",
      );
  }
}

/** POST /<user>/threads_publish: the FINISHED container becomes a post (or a reply), once. */
async function publishContainer(c: Ctx, emu: Emulated, caller: Caller, params: URLSearchParams) {
  const creationId = params.get("creation_id");
  if (!creationId) return required("creation_id");
  const object = await emu.object(creationId);
  if (object?.kind !== "container" || object.handle !== caller.handle) return unsupported(creationId);
  const container = containerOf(object);
  if (container.is_carousel_item)
    return refuse(400, "invalid_request", "(#100) A carousel item cannot be published on its own.");
  const { status } = statusOf(object);
  if (status === "PUBLISHED")
    return refuse(400, "invalid_request", "(#100) The container has already been published.");
  if (status === "EXPIRED") return refuse(400, "invalid_request", "(#100) The container has expired.");
  if (status === "ERROR") return refuse(400, "rejected", "The media could not be processed.");
  if (status === "IN_PROGRESS")
    return refuse(400, "not_ready", "(#24) The media is not ready to be published yet.", { code: 24 });
  const outcome = await emu.attempt(
    caller.handle,
    `publish:${container.reply_to_id ?? ""}:${container.text}`,
    container.text,
  );
  const children = await Promise.all(
    (container.children ?? []).map(async (id) => containerOf((await emu.object(id))!)),
  );
  const parts = container.media_type === "CAROUSEL" ? children : container.kind === "none" ? [] : [container];
  const stored = await emu.publish({
    id: mediaId(),
    handle: caller.handle,
    parentId: container.reply_to_id ?? null,
    items: [
      {
        text: container.text,
        media: parts.map((part) => ({
          url: part.url,
          type: mediaTypeOf(part.url, part.kind === "video" ? "video" : "image"),
        })),
      },
    ],
    platformRequest: {
      threads: container.request,
      ...(children.length ? { children: children.map((child) => child.request) } : {}),
      threads_publish: { creation_id: creationId },
    },
  });
  await emu.updateObject(creationId, { published_id: stored.id });
  return outcome === "lost" ? lostAnswer() : c.json({ id: stored.id });
}

/** A post as the Threads API shows it (Threads Media › fields). */
async function threadObject(emu: Emulated, post: LedgerPost, viewer: Caller) {
  const request = (post.platform_request ?? {}) as { threads?: Record<string, string> };
  const type = request.threads?.media_type ?? "TEXT";
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", utf8(`shortcode:${post.id}`)));
  const own = await emu.replies(post.id);
  const generated = (await emu.comments(post.id)) ?? [];
  return {
    id: post.id,
    media_product_type: "THREADS",
    media_type: type === "TEXT" ? "TEXT_POST" : type === "CAROUSEL" ? "CAROUSEL_ALBUM" : type,
    media_url: post.media[0]?.url,
    permalink: emu.postUrl(post.id),
    owner: { id: await emu.platformId(post.handle) },
    username: post.handle,
    text: post.text[0] || undefined,
    timestamp: graphTime(post.published_at),
    shortcode: letters(digest, 11),
    is_quote_post: false,
    has_replies: own.length + generated.length > 0,
    is_reply: post.parent_id !== null,
    is_reply_owned_by_me: post.parent_id !== null ? post.handle === viewer.handle : undefined,
    ...(post.parent_id ? { replied_to: { id: post.parent_id } } : {}),
    reply_audience: request.threads?.reply_control?.toUpperCase() ?? "EVERYONE",
    topic_tag: request.threads?.topic_tag,
  };
}

type Reply = Record<string, unknown> & { at: number };

/** The replies to a post (and, for a conversation, theirs, at any depth): everyone's and the account's. */
async function repliesOf(emu: Emulated, post: LedgerPost, viewer: Caller, deep: boolean): Promise<Reply[]> {
  const out: Reply[] = [];
  const visit = async (parent: LedgerPost, depth: number) => {
    for (const comment of (await emu.comments(parent.id)) ?? []) {
      out.push({
        id: comment.id,
        text: comment.text,
        username: comment.author.username,
        timestamp: graphTime(comment.created_at),
        media_type: "TEXT_POST",
        is_reply: true,
        is_reply_owned_by_me: false,
        has_replies: false,
        root_post: { id: post.id },
        replied_to: { id: parent.id },
        hide_status: "NOT_HUSHED",
        at: comment.created_at,
      });
    }
    for (const reply of await emu.replies(parent.id)) {
      out.push({
        ...(await threadObject(emu, reply, viewer)),
        root_post: { id: post.id },
        replied_to: { id: parent.id },
        hide_status: "NOT_HUSHED",
        at: Date.parse(reply.published_at),
      });
      if (deep && depth < 20) await visit(reply, depth + 1);
    }
  };
  await visit(post, 0);
  return out;
}

/** Newest first unless `reverse=false` asks for oldest first. */
function ordered(c: Ctx, replies: Reply[]) {
  const oldestFirst = c.req.query("reverse") === "false";
  return replies
    .sort((a, b) => (oldestFirst ? a.at - b.at : b.at - a.at))
    .map(({ at: _at, ...reply }) => reply as Record<string, unknown>);
}
