// Publishing a draft on an Instagram professional account: the first item's media become a photo, a
// reel (every single video is a reel since 2023), a carousel (2 to 10 media) or a story, as
// `settings.post_type` asks; its text is the caption. Instagram has no threads: each next item's text
// becomes a comment by the account under the media, in order. Instagram cannot post text alone, and
// comments cannot carry media: such drafts are refused before any call, with a clear permanent error.
import { afterCreation, type GraphParams, node } from "../meta";
import {
  type DraftItem,
  type DraftMedia,
  PlatformError,
  type PublishDraft,
  type PublishedPost,
} from "../types";
import { type IgApi, permalinkOf } from "./api";
import { checkPublishingQuota, createContainer, whenFinished } from "./containers";
import { created, type InstagramSettings, instagramSettings } from "./schemas";

/** A carousel holds at most this many photos and videos. */
export { CAROUSEL_MAX } from "./rules";

const refuse = (message: string) =>
  new PlatformError(`Instagram: ${message}`, { kind: "permanent", code: "unsupported_content" });

/**
 * Why Instagram cannot take this draft as asked, or null. The platform's check
 * (src/platforms/instagram/rules.ts), run before this call, refused a post without media, a story or reel
 * of the wrong media, a story with a thread, a carousel over its size and a comment with media or no text.
 */
export function draftProblem(items: DraftItem[]): string | null {
  const [first] = items;
  if (!first || first.media.length === 0)
    return "a post needs a photo or a video; text-only posts are not supported.";
  return null;
}

/** What a feed post, reel or carousel shares: caption, collaborators (up to 3), location. */
function postParams(item: DraftItem, settings: InstagramSettings): GraphParams {
  return {
    caption: item.text || undefined,
    collaborators: settings.collaborators.length > 0 ? settings.collaborators : undefined,
    location_id: settings.location_id ?? undefined,
  };
}

const mediaUrl = (media: DraftMedia): GraphParams =>
  media.kind === "video" ? { video_url: media.url } : { image_url: media.url };

/** The container the first item asks for, FINISHED and ready to publish: its id. */
async function readyContainer(api: IgApi, item: DraftItem, settings: InstagramSettings): Promise<string> {
  const [single] = item.media;
  let containerId: string;
  if (settings.post_type === "story" && single) {
    // Stories take no caption, collaborators or location.
    containerId = await createContainer(api, { media_type: "STORIES", ...mediaUrl(single) });
  } else if (single && item.media.length === 1 && single.kind === "video") {
    containerId = await createContainer(api, {
      media_type: "REELS",
      video_url: single.url,
      share_to_feed: settings.share_to_feed,
      ...postParams(item, settings),
    });
  } else if (single && item.media.length === 1) {
    containerId = await createContainer(api, { image_url: single.url, ...postParams(item, settings) });
  } else {
    const children: string[] = [];
    for (const media of item.media) {
      const params: GraphParams =
        media.kind === "video"
          ? { media_type: "VIDEO", video_url: media.url, is_carousel_item: true }
          : { image_url: media.url, is_carousel_item: true };
      const child = await createContainer(api, params);
      // A carousel can only be made of FINISHED children: each one's status is checked, a photo's too
      // (Instagram fetches and processes it asynchronously as well; an ERROR child fails the carousel).
      await whenFinished(api, child);
      children.push(child);
    }
    containerId = await createContainer(api, {
      media_type: "CAROUSEL",
      children: children.join(","),
      ...postParams(item, settings),
    });
  }
  await whenFinished(api, containerId);
  return containerId;
}

/** A comment by the account under a media (a thread's next item, an auto-plug): its id. */
export async function commentAs(api: IgApi, mediaId: string, text: string): Promise<string> {
  return (await api.graph.post("comment", node(mediaId, "comments"), { message: text }, created)).id;
}

export async function publishToInstagram(api: IgApi, draft: PublishDraft): Promise<PublishedPost> {
  const settings = instagramSettings.parse(draft.settings);
  const problem = draftProblem(draft.items);
  if (problem) throw refuse(problem);
  const [first, ...rest] = draft.items as [DraftItem, ...DraftItem[]];
  await checkPublishingQuota(api);
  const containerId = await readyContainer(api, first, settings);
  // The call that makes the post public: an answer lost here leaves the outcome unknown (call.ts).
  const params = { creation_id: containerId };
  const published = await api.graph.post("publish", node(api.userId, "media_publish"), params, created);
  const url = await permalinkOf(api, published.id);
  await afterCreation(async () => {
    for (const item of rest) await commentAs(api, published.id, item.text);
  });
  return { id: published.id, url };
}
