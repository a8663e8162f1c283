import {
  type Caller,
  type Emulated,
  emulate,
  type emulatorRouter,
  type LedgerObject,
  refuse,
} from "../emulator";
import {
  carouselChildren,
  containerStage,
  fetchable,
  graphParams,
  ownNode,
  required,
  unsupported,
  VERSION,
} from "../meta-graph";
import { followerReply } from "./comments";
import { CAROUSEL, mediaId, REPLY_CONTROLS, TEXT_MAX, TOPIC_TAG_MAX } from "./rules";

/** The emulator's router, as its route groups extend it. */
type Router = ReturnType<typeof emulatorRouter>;

export type Container = {
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

export const containerOf = (object: LedgerObject) => object.data as unknown as Container;

/** Threads › Troubleshooting › container status: PUBLISHED, EXPIRED, ERROR, IN_PROGRESS or FINISHED. */
export function statusOf(object: LedgerObject): { status: string; error_message?: string } {
  const status = containerStage(object);
  const error = containerOf(object).error;
  return status === "ERROR" && error ? { status, error_message: error } : { status };
}

/** POST /<user>/threads: a container. */
export function mediaRoutes(app: Router): void {
  app.post(`/${VERSION}/:id/threads`, async (c) => {
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
  });
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
    // A post or reply, or a follower's reply on one of the caller's threads.
    const parent = (await emu.post(replyTo)) ?? (await followerReply(emu, caller, replyTo));
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
