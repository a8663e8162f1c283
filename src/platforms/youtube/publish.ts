// Publishing on YouTube: a post is one video (the first video of the post's only item), uploaded with
// the row's settings and the fingerprint as one of its tags, so that `find` can tell, after a lost
// answer, whether the upload was accepted: it reads the tags of the channel's latest uploads (tags are
// shown to the channel's owner through the API). A reply is a top-level comment by the channel, found
// again by its text among the video's comments.
// developers.google.com › YouTube Data API › Videos: insert; Channels: list; PlaylistItems: list.
import { progressOf } from "../progress";
import type { AccountAuth, FindLookup, Progress, PublishDraft, PublishedPost } from "../types";
import { permanent, tokenOf, type YouTubeApi } from "./api";
import { recordedSessionState, recordedVideo, uploadVideo, type VideoMetadata } from "./media";
import { commentUrl, threadPage } from "./read";
import { channelList, commentThread, playlistItemList, videoSnippetList } from "./schemas";
import { settings as settingsSchema } from "./settings";

/** YouTube's category for a video no category was chosen for: People & Blogs. */
export const DEFAULT_CATEGORY = "22";
/** How many of the channel's latest uploads `find` looks through (one page). */
export const FIND_WINDOW = 50;
/** Characters of a video title (Videos resource › snippet.title). */
export const TITLE_MAX = 100;

/** A title from the text's first non-empty line (else the file's name), cut to YouTube's 100 characters. */
export function titleFrom(text: string, fileName: string): string {
  const line = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .find((l) => l !== "");
  const title = line ?? fileName.replace(/\.[^.]*$/, "").trim();
  const characters = [...(title || "Untitled")];
  return characters.length > TITLE_MAX
    ? `${characters.slice(0, TITLE_MAX - 1).join("")}…`
    : characters.join("");
}

function settingsOf(draft: PublishDraft) {
  const parsed = settingsSchema.safeParse(draft.settings);
  if (!parsed.success) throw permanent("invalid_settings", "The YouTube settings of the post are not valid.");
  return parsed.data;
}

export async function publishVideo(
  api: YouTubeApi,
  account: AccountAuth,
  draft: PublishDraft,
): Promise<PublishedPost> {
  const token = tokenOf(account);
  // The platform's check (src/platforms/youtube/rules.ts) refused a thread and a post without a video.
  const item = draft.items[0];
  const media = item?.media.find((m) => m.kind === "video");
  if (!item || !media)
    throw permanent("video_required", "YouTube publishes videos: add a video to the post.");
  const settings = settingsOf(draft);
  const metadata: VideoMetadata = {
    snippet: {
      title: settings.title ?? titleFrom(item.text, media.name),
      description: item.text,
      tags: [...settings.tags, draft.fingerprint],
      categoryId: settings.category_id ?? DEFAULT_CATEGORY,
    },
    status: { privacyStatus: settings.privacy_status, selfDeclaredMadeForKids: settings.made_for_kids },
  };
  const id = await uploadVideo(api, token, metadata, media, draft);
  return { id, url: api.watchUrl(id) };
}

/** Waits `ms` (tests pass one that does not). */
export type Sleep = (ms: number) => Promise<void>;
export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * How long `find` waits before looking a second time: a video YouTube has just accepted can take a few
 * seconds to show in the channel's uploads playlist (and a comment in its thread list), so one look that
 * finds nothing is not yet proof that the earlier attempt published nothing.
 */
export const FIND_RETRY_MS = 5_000;

/**
 * What an earlier attempt recorded says of the video, before any search: a recorded video id is the
 * video (videos.list id=… confirms it; YouTube gave that id for the upload it accepted, so it stands
 * even if the list lags); a recorded session is asked what it has: complete → its video, still
 * incomplete → no video exists (publish resumes the session). Undefined: nothing recorded, or the
 * session expired (404/410) without saying whether it completed: the tag search decides.
 */
async function reconciled(
  api: YouTubeApi,
  token: string,
  progress: Progress,
): Promise<PublishedPost | null | undefined> {
  let id = recordedVideo(progress);
  if (!id) {
    const state = await recordedSessionState(api, token, progress);
    if (!state || state.kind === "gone") return undefined;
    if (state.kind === "incomplete") return null;
    id = state.videoId;
  }
  const listed = await api.get("video", "videos", { part: "id", id }, token, videoSnippetList);
  const found = listed.items.find((v) => v.id === id)?.id ?? id;
  return { id: found, url: api.watchUrl(found) };
}

/**
 * The video (or, with `replyTo`, the comment) an earlier attempt published: by what it recorded (the
 * video id, the upload session) when it recorded something, else looked for by the fingerprint tag
 * twice, `FIND_RETRY_MS` apart, before concluding there is none.
 */
export async function findPublished(
  api: YouTubeApi,
  account: AccountAuth,
  lookup: FindLookup,
  sleep: Sleep = realSleep,
): Promise<PublishedPost | null> {
  if (!lookup.replyTo && lookup.progress) {
    const recorded = await reconciled(api, tokenOf(account), progressOf(lookup));
    if (recorded !== undefined) return recorded;
  }
  const first = await findOnce(api, account, lookup);
  if (first) return first;
  await sleep(FIND_RETRY_MS);
  return findOnce(api, account, lookup);
}

async function findOnce(
  api: YouTubeApi,
  account: AccountAuth,
  lookup: FindLookup,
): Promise<PublishedPost | null> {
  const token = tokenOf(account);
  if (lookup.replyTo) return findReply(api, account, lookup.replyTo, lookup.text);
  const channels = await api.get(
    "uploads playlist",
    "channels",
    { part: "contentDetails", mine: "true" },
    token,
    channelList,
  );
  const uploads = channels.items[0]?.contentDetails?.relatedPlaylists?.uploads;
  if (!uploads) return null;
  const recent = await api.get(
    "recent uploads",
    "playlistItems",
    { part: "contentDetails", playlistId: uploads, maxResults: String(FIND_WINDOW) },
    token,
    playlistItemList,
  );
  const ids = recent.items.map((i) => i.contentDetails.videoId);
  if (ids.length === 0) return null;
  const videos = await api.get(
    "recent videos",
    "videos",
    // videos.list takes no maxResults with id (Videos: list › maxResults): the ids are the page.
    { part: "snippet", id: ids.join(",") },
    token,
    videoSnippetList,
  );
  const found = videos.items.find((v) => v.snippet?.tags?.includes(lookup.fingerprint));
  return found ? { id: found.id, url: api.watchUrl(found.id) } : null;
}

/** A top-level comment by the channel under the video (commentThreads.insert). */
export async function postComment(
  api: YouTubeApi,
  account: AccountAuth,
  videoId: string,
  text: string,
): Promise<PublishedPost> {
  const snippet: Record<string, unknown> = { videoId, topLevelComment: { snippet: { textOriginal: text } } };
  // The channel the video belongs to: the account's own.
  if (account.platformUserId) snippet.channelId = account.platformUserId;
  const thread = await api.post(
    "comment",
    "commentThreads",
    { part: "snippet" },
    tokenOf(account),
    { snippet },
    commentThread,
  );
  return { id: thread.id, url: commentUrl(api, videoId, thread.id) };
}

/** The channel's own comment with exactly `text` among the video's newest comment threads. */
export async function findReply(
  api: YouTubeApi,
  account: AccountAuth,
  videoId: string,
  text: string,
): Promise<PublishedPost | null> {
  const answer = await threadPage(api, tokenOf(account), videoId);
  const mine = answer.items.find((thread) => {
    const top = thread.snippet.topLevelComment.snippet;
    const byChannel = !account.platformUserId || top.authorChannelId?.value === account.platformUserId;
    return byChannel && (top.textOriginal ?? top.textDisplay) === text;
  });
  return mine ? { id: mine.id, url: commentUrl(api, videoId, mine.id) } : null;
}
