// Publishing a draft on a Facebook Page: the first item becomes the post (a text or link post, a photo,
// several photos, a video, a reel or a story, from its media and `settings.post_type`); Facebook has no
// threads, so each next item becomes a comment by the Page under the post, in order. What Facebook
// cannot take is refused before any call, with a permanent error that says why.
import { afterCreation, node } from "../meta";
import { progressOf } from "../progress";
import {
  type DraftItem,
  PlatformError,
  type Progress,
  type PublishDraft,
  type PublishedPost,
} from "../types";
import { type PageApi, permalinkOf, photoUrl, reelUrl } from "./api";
import { albumPost, feedPost, photoPost, recorded, reelPost, storyPost, videoPost } from "./media";
import { created, type FacebookSettings, facebookSettings } from "./schemas";

const refuse = (message: string) =>
  new PlatformError(`Facebook: ${message}`, { kind: "permanent", code: "unsupported_content" });

/**
 * Why Facebook cannot take this draft as asked, or null: what the platform's check
 * (src/platforms/facebook/rules.ts), run before this call, does not cover. It refused a link beside media,
 * a story or reel of the wrong media, a story with a thread, a video beside other media and a comment of
 * several photos or a video.
 */
export function draftProblem(items: DraftItem[], settings: FacebookSettings): string | null {
  const [first, ...rest] = items;
  if (!first) return "the post has no content.";
  if (settings.post_type === "post" && first.media.length === 0 && !first.text.trim() && !settings.link)
    return "a post needs text, a link or media.";
  for (const [index, item] of rest.entries()) {
    if (!item.text.trim() && item.media.length === 0)
      return `item ${index + 2} becomes a comment, which needs text or a photo.`;
  }
  return null;
}

/** Makes the post the first item asks for; its id and address. */
async function createPost(
  api: PageApi,
  item: DraftItem,
  settings: FacebookSettings,
  progress: Progress,
): Promise<PublishedPost> {
  const [media] = item.media;
  if (settings.post_type === "story" && media) {
    const id = await storyPost(api, media, progress);
    return { id, url: await permalinkOf(api, id) };
  }
  if (settings.post_type === "reel" && media) {
    const id = await reelPost(api, media, item.text, progress);
    return { id, url: await permalinkOf(api, id, reelUrl(api, id)) };
  }
  let id: string;
  if (!media) id = await feedPost(api, item.text, settings.link);
  else if (media.kind === "video") id = await videoPost(api, media, item.text);
  else if (item.media.length === 1 && item.text.trim()) {
    // A single-photo post is linked as its photo, as Facebook itself shows it.
    const photo = await photoPost(api, media, item.text);
    return { id: photo.postId, url: await photoUrl(api, photo.photoId) };
  }
  // Several photos, or one without a caption: each uploaded unpublished and recorded first, then one feed
  // post attaching them, so a lost answer is reconciled by the photos (a captionless post has no text to
  // be found by).
  else {
    id = await albumPost(api, item.media, item.text, progress);
    const photos = recorded(progress).photos ?? [];
    if (item.media.length === 1 && photos[0]) return { id, url: await photoUrl(api, photos[0]) };
  }
  return { id, url: await permalinkOf(api, id) };
}

/** A comment by the Page under a post (a thread's next item, an auto-plug): its id. */
export async function commentAs(api: PageApi, postId: string, item: DraftItem): Promise<string> {
  const params = { message: item.text || undefined, attachment_url: item.media[0]?.url };
  return (await api.graph.post("comment", node(postId, "comments"), params, created)).id;
}

export async function publishToPage(api: PageApi, draft: PublishDraft): Promise<PublishedPost> {
  const settings = facebookSettings.parse(draft.settings);
  const problem = draftProblem(draft.items, settings);
  if (problem) throw refuse(problem);
  const [first, ...rest] = draft.items as [DraftItem, ...DraftItem[]];
  const post = await createPost(api, first, settings, progressOf(draft));
  await afterCreation(async () => {
    for (const item of rest) await commentAs(api, post.id, item);
  });
  return post;
}
