// Pinterest's publishing endpoints on the emulator: the user's boards (GET /v5/boards), Create Pin
// (image URL, Base64 image, 2 to 5 images, a processed video), and the listings `find` reads
// (GET /v5/pins, GET /v5/pins/{id}). The boards a sandbox user owns are two, with stable numeric ids cut
// from (handle, board), so a test or a person can name one in `settings.pinterest.board_id`; a Pin goes
// only to a board of the token's user, as on Pinterest.
// developers.pinterest.com › API reference v5 › List boards; Create Pin; List Pins; Get Pin.
import { z } from "zod";
import { utf8 } from "../../lib/encoding";
import { digits } from "../../platforms/sandbox/ids";
import { type Emulated, type LedgerPost, lostAnswer, refuse } from "../emulator";
import { MEDIA_KIND, mediaStatus } from "./media";
import { CAROUSEL, CODE, ID_DIGITS, LIMITS, PAGE_SIZE } from "./rules";

// ---- Boards ----

export type SandboxBoard = { id: string; name: string; description: string; privacy: "PUBLIC" | "SECRET" };

const SHAPES = [
  { slug: "ideas", name: (handle: string) => `${handle}'s ideas`, privacy: "PUBLIC" as const },
  { slug: "drafts", name: () => "Drafts", privacy: "SECRET" as const },
];

/** The board id of `slug` for `handle`: 18 digits, the same every time. */
export async function boardId(handle: string, slug: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", utf8(`sandbox-board:pinterest:${handle}:${slug}`));
  return digits(new Uint8Array(digest), ID_DIGITS.board);
}

/** Every board of `handle`, its public board first. */
export async function sandboxBoards(handle: string): Promise<SandboxBoard[]> {
  return Promise.all(
    SHAPES.map(async (shape) => ({
      id: await boardId(handle, shape.slug),
      name: shape.name(handle),
      description: "",
      privacy: shape.privacy,
    })),
  );
}

/** GET /v5/boards: the caller's boards, filtered by `privacy` when given. */
export async function boards(e: Emulated, privacy: string | undefined) {
  const me = await e.caller();
  const items = (await sandboxBoards(me.handle))
    .filter((board) => !privacy || board.privacy === privacy)
    .map((board) => ({
      id: board.id,
      name: board.name,
      description: board.description,
      privacy: board.privacy,
      owner: { username: me.handle },
      created_at: "2025-01-01T00:00:00",
      board_pins_modified_at: null,
      collaborator_count: 0,
      follower_count: 0,
      pin_count: null,
      media: { image_cover_url: null, pin_thumbnail_urls: [] },
    }));
  return { items, bookmark: null };
}

// ---- Pins ----

const id = z.string().regex(/^\d+$/, "must be a string of digits");
const standard = { is_standard: z.boolean().optional() };
const base64Image = {
  content_type: z.enum(["image/jpeg", "image/png"]),
  data: z.string().regex(/^[a-zA-Z0-9+/=]+$/),
};
const itemText = {
  title: z.string().optional(),
  description: z.string().optional(),
  link: z.string().optional(),
};
const mediaSource = z.discriminatedUnion("source_type", [
  z.looseObject({ source_type: z.literal("image_url"), url: z.string().min(1), ...standard }),
  z.looseObject({ source_type: z.literal("image_base64"), ...base64Image, ...standard }),
  z.looseObject({
    source_type: z.literal("multiple_image_urls"),
    items: z
      .array(z.looseObject({ url: z.string().min(1), ...itemText }))
      .min(CAROUSEL.min)
      .max(CAROUSEL.max),
    index: z.number().int().min(0).optional(),
  }),
  z.looseObject({
    source_type: z.literal("multiple_image_base64"),
    items: z
      .array(z.looseObject({ ...base64Image, ...itemText }))
      .min(CAROUSEL.min)
      .max(CAROUSEL.max),
    index: z.number().int().min(0).optional(),
  }),
  z.looseObject({
    source_type: z.literal("video_id"),
    media_id: id,
    cover_image_url: z.string().optional(),
    cover_image_key_frame_time: z.number().int().min(0).optional(),
    cover_image_data: z.string().optional(),
    cover_image_content_type: z.enum(["image/jpeg", "image/png"]).optional(),
    ...standard,
  }),
]);
const pinCreate = z.looseObject({
  board_id: id,
  board_section_id: id.nullish(),
  title: z.string().max(LIMITS.title).nullish(),
  description: z.string().max(LIMITS.description).nullish(),
  link: z.string().max(LIMITS.link).nullish(),
  alt_text: z.string().max(LIMITS.alt_text).nullish(),
  dominant_color: z.string().nullish(),
  parent_pin_id: id.nullish(),
  media_source: mediaSource,
});
type CreatePin = z.infer<typeof pinCreate>;

const isWebUrl = (value: string) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);
const imageType = (url: string) => (/\.png(?:$|[?#])/i.test(url) ? "image/png" : "image/jpeg");

function requireWebUrl(url: string, field: string) {
  if (!isWebUrl(url))
    refuse(400, "invalid_request", `Invalid request: ${field}: the image URL is not a valid http(s) URL.`);
}

/** What a Pin's page shows, with the Pin's media stored where Pinterest received bytes. */
async function ledgerMedia(e: Emulated, me: string, body: CreatePin) {
  const source = body.media_source;
  switch (source.source_type) {
    case "image_url":
      requireWebUrl(source.url, "media_source.url");
      return { kind: "image", media: [{ url: source.url, type: imageType(source.url) }] };
    case "multiple_image_urls":
      source.items.forEach((item, index) => {
        requireWebUrl(item.url, `media_source.items.${index}.url`);
      });
      return {
        kind: "multiple_images",
        media: source.items.map((item) => ({ url: item.url, type: imageType(item.url) })),
      };
    case "image_base64":
      return {
        kind: "image",
        media: [await storeBase64(e, source.data, source.content_type)],
      };
    case "multiple_image_base64":
      return {
        kind: "multiple_images",
        media: await Promise.all(source.items.map((item) => storeBase64(e, item.data, item.content_type))),
      };
    case "video_id": {
      const video = await e.object(source.media_id);
      if (!video || video.kind !== MEDIA_KIND || video.handle !== me)
        return refuse(404, "not_found", "Media not found.", { code: 404 });
      if (mediaStatus(video) !== "succeeded")
        return refuse(
          400,
          "invalid_request",
          "The video is not processed yet: its media status is not succeeded.",
        );
      const media = [{ url: String(video.data.url), type: String(video.data.type) }];
      if (source.cover_image_url) {
        requireWebUrl(source.cover_image_url, "media_source.cover_image_url");
        media.push({ url: source.cover_image_url, type: imageType(source.cover_image_url) });
      }
      return { kind: "video", media };
    }
  }
}

async function storeBase64(e: Emulated, data: string, type: string) {
  let bytes: Uint8Array;
  try {
    bytes = Uint8Array.from(atob(data), (char) => char.charCodeAt(0));
  } catch {
    return refuse(400, "invalid_request", "Invalid request: the image data is not Base64.");
  }
  const url = await e.storeMedia(`image-${crypto.randomUUID()}`, bytes, type);
  return { url, type };
}

const CREATIVE_TYPE = { image: "REGULAR", multiple_images: "CAROUSEL", video: "VIDEO" } as const;

/** The Pin model as Pinterest answers it. */
export function pinOf(post: LedgerPost) {
  const body = post.platform_request as CreatePin & { kind?: string };
  const kind =
    (post.media.some((m) => m.type.startsWith("video/")) ? "video" : undefined) ??
    (post.media.length > 1 ? "multiple_images" : "image");
  const images = (url: string) => ({
    "150x150": { width: 150, height: 150, url },
    "400x300": { width: 400, height: 300, url },
    "600x": { width: 600, height: 600, url },
    "1200x": { width: 1200, height: 1200, url },
  });
  const first = post.media[0]?.url ?? "";
  const media =
    kind === "video"
      ? {
          media_type: "video",
          cover_image_url: post.media[1]?.url ?? first,
          video_url: first,
          duration: null,
          height: null,
          width: null,
        }
      : kind === "multiple_images"
        ? {
            media_type: "multiple_images",
            items: post.media.map((m) => ({ item_type: "image", images: images(m.url) })),
          }
        : { media_type: "image", images: images(first) };
  return {
    id: post.id,
    created_at: post.published_at.replace(/\.\d+Z$|Z$/, ""),
    link: body.link ?? null,
    title: body.title ?? null,
    description: body.description ?? null,
    dominant_color: body.dominant_color ?? "#6E7874",
    alt_text: body.alt_text ?? null,
    creative_type: CREATIVE_TYPE[kind],
    board_id: body.board_id,
    board_section_id: body.board_section_id ?? null,
    board_owner: { username: post.handle },
    is_owner: true,
    media,
    parent_pin_id: null,
    is_standard: true,
    has_been_promoted: false,
    note: "",
    pin_metrics: null,
  };
}

/** POST /v5/pins: the Pin created on the caller's board, answered 201 with the Pin model. */
export async function createPin(e: Emulated): Promise<Response> {
  const me = await e.caller();
  const body = await e.json(pinCreate);
  const board = (await sandboxBoards(me.handle)).find((b) => b.id === body.board_id);
  if (!board) return refuse(404, "not_found", "Board not found.", { code: CODE.boardNotFound });
  const text = body.description ?? "";
  const outcome = await e.attempt(me.handle, `pin:${body.board_id}:${text}:${body.title ?? ""}`, text);
  const { media } = await ledgerMedia(e, me.handle, body);
  const created = await e.publish({
    handle: me.handle,
    id: digits(crypto.getRandomValues(new Uint8Array(16)), ID_DIGITS.pin),
    items: [{ text, media }],
    platformRequest: body,
  });
  if (outcome === "lost") return lostAnswer(201);
  const post = await e.post(created.id);
  return Response.json(pinOf(post!), { status: 201 });
}

/** The caller's Pin, or Pinterest's refusal: 404 when there is none, 403 when it is someone else's. */
export async function ownPin(e: Emulated, handle: string, pinId: string) {
  const post = /^\d+$/.test(pinId) ? await e.post(pinId) : null;
  if (!post || post.parent_id !== null) return refuse(404, "not_found", "Pin not found.", { code: 404 });
  if (post.handle !== handle)
    return refuse(403, "forbidden", "Not authorized to access board or Pin.", { code: 403 });
  return post;
}

/** GET /v5/pins: the caller's Pins, newest first, a page at a time (`page_size`, `bookmark`). */
export async function listPins(e: Emulated, query: URLSearchParams) {
  const me = await e.caller();
  const size = query.get("page_size") ?? String(PAGE_SIZE.default);
  if (!/^\d+$/.test(size) || Number(size) < PAGE_SIZE.min || Number(size) > PAGE_SIZE.max)
    return refuse(
      400,
      "invalid_request",
      `Invalid request: page_size must be between ${PAGE_SIZE.min} and ${PAGE_SIZE.max}.`,
    );
  const bookmark = query.get("bookmark");
  const offset = bookmark ? Number.parseInt(atobSafe(bookmark), 10) : 0;
  if (!Number.isInteger(offset) || offset < 0)
    return refuse(400, "invalid_request", "Invalid request: the bookmark is not valid.");
  // Newest first, as Pinterest lists a user's Pins.
  const all = (await e.posts(me.handle)).reverse();
  const page = all.slice(offset, offset + Number(size));
  const next = offset + page.length < all.length ? btoa(String(offset + page.length)) : null;
  return { items: page.map(pinOf), bookmark: next };
}

const atobSafe = (value: string) => {
  try {
    return atob(value);
  } catch {
    return "";
  }
};

/** GET /v5/pins/{pin_id}: the caller's Pin. */
export async function getPin(e: Emulated, pinId: string) {
  const me = await e.caller();
  return pinOf(await ownPin(e, me.handle, pinId));
}
