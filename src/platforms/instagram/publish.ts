// Publishing a draft on an Instagram professional account: the first item's media become a photo, a
// reel (every single video is a reel since 2023), a carousel (2 to 10 media) or a story, as
// `settings.post_type` asks; its text is the caption. Instagram has no threads: each next item's text
// becomes a comment by the account under the media, in order. Instagram cannot post text alone, and
// comments cannot carry media: such drafts are refused before any call, with a clear permanent error.
// Also here: `find` (Instagram keeps no hidden field to carry a fingerprint, so an earlier attempt is
// recognised by its exact caption among the account's 25 latest media; stories are not listed there; a
// reply by its text and author among the media's comments) and the auto-plug `reply`.
// developers.facebook.com › Instagram Platform › Content Publishing; IG User Media; IG Media Comments.
import { afterCreation, type GraphParams, graphTime, node, sameText } from "../meta";
import { progressOf } from "../progress";
import {
  type DraftItem,
  type DraftMedia,
  type FindLookup,
  PlatformError,
  type Progress,
  type PublishDraft,
  type PublishedPost,
} from "../types";
import { type IgApi, permalinkOf, profileUrl } from "./api";
import {
  checkPublishingQuota,
  containerState,
  createContainer,
  DeadContainer,
  type IgProgress,
  mediaRejected,
  PROGRESS_KEY,
  recorded,
  whenFinished,
} from "./media";
import { commentsPage, created, type InstagramSettings, instagramSettings, recentMedia } from "./schemas";

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

/** The parameters of the container the first item asks for (a carousel's made from `children`). */
function containerParams(item: DraftItem, settings: InstagramSettings, children: string[]): GraphParams {
  const [single] = item.media;
  // Stories take no caption, collaborators or location.
  if (settings.post_type === "story" && single) return { media_type: "STORIES", ...mediaUrl(single) };
  if (single && item.media.length === 1 && single.kind === "video") {
    return {
      media_type: "REELS",
      video_url: single.url,
      share_to_feed: settings.share_to_feed,
      ...postParams(item, settings),
    };
  }
  if (single && item.media.length === 1) return { image_url: single.url, ...postParams(item, settings) };
  return { media_type: "CAROUSEL", children: children.join(","), ...postParams(item, settings) };
}

const childParams = (media: DraftMedia): GraphParams =>
  media.kind === "video"
    ? { media_type: "VIDEO", video_url: media.url, is_carousel_item: true }
    : { image_url: media.url, is_carousel_item: true };

/**
 * The container the first item asks for, FINISHED (or already PUBLISHED) and recorded: every container
 * is recorded on the row the moment Instagram answers with its id, so a later attempt polls the same
 * ones (and publishes the same parent) instead of making new ones. A carousel's children are made and
 * polled one by one (a carousel can only be made of FINISHED children), then the carousel itself.
 */
async function readyContainer(
  api: IgApi,
  item: DraftItem,
  settings: InstagramSettings,
  draft: PublishDraft,
  progress: Progress,
): Promise<{ id: string; state: IgProgress; status: "FINISHED" | "PUBLISHED" }> {
  const made = new Set<string>();
  let state = recorded(progress);
  const record = async (next: IgProgress) => {
    state = next;
    await progress.set(PROGRESS_KEY, state);
  };
  for (;;) {
    try {
      const carousel = settings.post_type !== "story" && item.media.length > 1;
      if (!state.container && carousel) {
        const children = [...(state.children ?? [])];
        for (const [index, media] of item.media.entries()) {
          if (index >= children.length) {
            const child = await createContainer(api, childParams(media));
            made.add(child);
            children.push(child);
            await record({ ...state, children: [...children], at: state.at ?? api.now() });
          }
          // Each child's status is checked, a photo's too: Instagram fetches and processes it
          // asynchronously as well, and an ERROR child would fail the carousel.
          await whenFinished(api, children[index]!, draft.deadline);
        }
      }
      if (!state.container) {
        const id = await createContainer(api, containerParams(item, settings, state.children ?? []));
        made.add(id);
        await record({ ...state, container: id, at: state.at ?? api.now() });
      }
      const status = await whenFinished(api, state.container!, draft.deadline);
      return { id: state.container!, state, status };
    } catch (error) {
      if (!(error instanceof DeadContainer)) throw error;
      // A container Instagram says is dead is replaced, with every container made for the post (a
      // carousel's parent and children expire together): EXPIRED (not published within 24 hours) is
      // always replaced; ERROR of a container an earlier attempt made is replaced once (Meta marks some
      // failures "try again": a media download that timed out), but an ERROR of one made in this
      // attempt, or of a replacement, is Instagram refusing the media for good.
      const { status_code } = error.state;
      const fresh = made.has(error.id);
      const replaced = state.replaced ?? 0;
      // EXPIRED means "not published within 24 hours": a container made in this attempt cannot be, so
      // replacing it again here could loop without end. The attempt ends with it recorded; the next one
      // finds it EXPIRED as an earlier attempt's and replaces it.
      if (status_code === "EXPIRED" && fresh)
        throw new PlatformError(`Instagram reported container ${error.id}, just made, as EXPIRED`, {
          kind: "transient",
          code: "container_expired",
        });
      if (status_code === "ERROR" && (fresh || replaced >= 1)) {
        await record({ replaced });
        throw mediaRejected(error.state);
      }
      await record({ replaced: status_code === "ERROR" ? replaced + 1 : replaced });
    }
  }
}

/** A comment by the account under a media (a thread's next item, an auto-plug): its id. */
export async function commentAs(api: IgApi, mediaId: string, text: string): Promise<string> {
  return (await api.graph.post("comment", node(mediaId, "comments"), { message: text }, created)).id;
}

/** The auto-plug: a comment by the account (Instagram keeps nothing hidden with it; `find` reads its text). */
export async function replyOnInstagram(api: IgApi, mediaId: string, text: string): Promise<PublishedPost> {
  const id = await commentAs(api, mediaId, text);
  return { id, url: await permalinkOf(api, mediaId) };
}

export async function publishToInstagram(api: IgApi, draft: PublishDraft): Promise<PublishedPost> {
  const settings = instagramSettings.parse(draft.settings);
  const problem = draftProblem(draft.items);
  if (problem) throw refuse(problem);
  const [first, ...rest] = draft.items as [DraftItem, ...DraftItem[]];
  const progress = progressOf(draft);
  const before = recorded(progress);
  if (before.media) return { id: before.media, url: await permalinkOf(api, before.media) };
  // The quota is checked before the first container; a recorded one is already counted for.
  if (!before.container && !before.children) await checkPublishingQuota(api);
  const ready = await readyContainer(api, first, settings, draft, progress);
  const { id: containerId, state } = ready;
  // An earlier attempt's media_publish went through though its answer was lost: never again.
  if (ready.status === "PUBLISHED") return publishedMedia(api, first.text, state, progress);
  // The call that makes the post public: an answer lost here leaves the outcome unknown (call.ts),
  // and the next attempt's `find` asks the recorded container first.
  const params = { creation_id: containerId };
  const published = await api.graph.post("publish", node(api.userId, "media_publish"), params, created);
  await progress.set(PROGRESS_KEY, { ...state, media: published.id });
  const url = await permalinkOf(api, published.id);
  await afterCreation(async () => {
    for (const item of rest) await commentAs(api, published.id, item.text);
  });
  return { id: published.id, url };
}

/** How many of the account's latest media (or a media's comments) `find` looks through. */
export const FIND_WINDOW = 25;
const COMMENTS_PAGE = 50;

/** How far before the first container was made a media's timestamp may read (clocks differ). */
const CLOCK_SKEW_MS = 5 * 60_000;

/**
 * The media of a container Instagram reports PUBLISHED (its media_publish answer was lost): the IG
 * Container gives no media id, so it is looked for among the account's latest media, by its caption,
 * else as the newest media made since the container was; the id found is recorded. A story is not on
 * that edge: the container id then stands for it (it is published; nothing is published again).
 */
export async function publishedMedia(
  api: IgApi,
  caption: string,
  state: IgProgress,
  progress: Progress | undefined,
): Promise<PublishedPost> {
  const query = { fields: "id,caption,permalink,timestamp", limit: String(FIND_WINDOW) };
  const media = await api.graph.get("find", node(api.userId, "media"), query, recentMedia);
  const since = (state.at ?? 0) - CLOCK_SKEW_MS;
  const found =
    media.data.find((m) => sameText(m.caption, caption)) ??
    media.data.find((m) => m.timestamp !== undefined && graphTime(m.timestamp).getTime() >= since);
  if (!found) return { id: state.container!, url: profileUrl(api.handle) };
  await progress?.set(PROGRESS_KEY, { ...state, media: found.id });
  return { id: found.id, url: found.permalink ?? profileUrl(api.handle) };
}

export async function findOnInstagram(api: IgApi, lookup: FindLookup): Promise<PublishedPost | null> {
  // What an earlier attempt recorded answers first: its media, else its container's status (only a
  // PUBLISHED container was published; any other is resumed by publish, with no text search).
  const state = lookup.replyTo ? {} : recorded(lookup.progress);
  if (state.media) return { id: state.media, url: await permalinkOf(api, state.media) };
  // Only a carousel's children so far: nothing that could have been published.
  if (state.children && !state.container) return null;
  if (state.container) {
    const { status_code } = await containerState(api, state.container);
    return status_code === "PUBLISHED" ? publishedMedia(api, lookup.text, state, lookup.progress) : null;
  }
  if (lookup.replyTo) {
    const query = { fields: "id,text,username", limit: String(COMMENTS_PAGE) };
    const answer = await api.graph.get("find", node(lookup.replyTo, "comments"), query, commentsPage);
    const handle = api.handle.toLowerCase();
    const mine = answer.data.find(
      (c) => sameText(c.text, lookup.text) && (!c.username || c.username.toLowerCase() === handle),
    );
    return mine ? { id: mine.id, url: await permalinkOf(api, lookup.replyTo) } : null;
  }
  const query = { fields: "id,caption,permalink", limit: String(FIND_WINDOW) };
  const media = await api.graph.get("find", node(api.userId, "media"), query, recentMedia);
  const found = media.data.find((m) => sameText(m.caption, lookup.text));
  return found ? { id: found.id, url: found.permalink ?? profileUrl(api.handle) } : null;
}
