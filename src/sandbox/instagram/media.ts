import {
  type Caller,
  type Emulated,
  emulate,
  type emulatorRouter,
  type LedgerObject,
  type LedgerPost,
  refuse,
} from "../emulator";
import {
  type ContainerStage,
  carouselChildren,
  containerStage,
  fetchable,
  graphParams,
  ownNode,
  required,
  VERSION,
} from "../meta-graph";
import {
  CAPTION_MAX,
  CAROUSEL,
  CAROUSEL_PHOTO_PROCESSING_MS,
  HASHTAGS_MAX,
  MENTIONS_MAX,
  mediaId,
} from "./rules";

/** The emulator's router, as its route groups extend it. */
type Router = ReturnType<typeof emulatorRouter>;

export type Container = {
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

export const containerOf = (object: LedgerObject) => object.data as unknown as Container;

/** IG Container › status_code's `status` text, by stage (an ERROR's is its error). */
const STATUS_TEXT: Record<Exclude<ContainerStage, "ERROR">, string> = {
  PUBLISHED: "Published: Media has been published.",
  EXPIRED: "Expired",
  IN_PROGRESS: "In Progress: Media is still being processed.",
  FINISHED: "Finished: Media has been uploaded and it is ready to be published.",
};

/** IG Container › status_code: PUBLISHED, EXPIRED, ERROR, IN_PROGRESS or FINISHED. */
export function statusOf(object: LedgerObject): { status_code: string; status: string } {
  const stage = containerStage(object);
  const container = containerOf(object);
  return {
    status_code: stage,
    status: stage === "ERROR" ? (container.error ?? "Error") : STATUS_TEXT[stage],
  };
}

/** Who a media is, as the ledger keeps it: its container request says its type and product. */
export function mediaFacts(post: LedgerPost) {
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

/** POST /<IG_ID>/media: a container. */
export function mediaRoutes(app: Router) {
  return app.post(`/${VERSION}/:id/media`, async (c) => {
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
  });
}

/** A media container from the call's parameters, refused the way Instagram refuses it. */
export async function newContainer(
  emu: Emulated,
  caller: Caller,
  params: URLSearchParams,
): Promise<Container> {
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
