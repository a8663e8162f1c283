// Reading back from TikTok with the Display API: `find` (an earlier attempt's post by its text among the
// creator's 20 latest videos: TikTok keeps no hidden field for a fingerprint) and a post's counts.
// TikTok offers apps no comment listing outside its Research API and no comment creation: the
// definition has no `comments` nor `reply`.
// developers.tiktok.com › Display API (List Videos, Query Videos).

import { withEngagement } from "../metrics";
import {
  type AccountAuth,
  type FindLookup,
  PlatformError,
  type PostMetrics,
  type PublishedPost,
} from "../types";
import type { TiktokApi } from "./api";
import { videoList } from "./schemas";

/** The Display API keeps at most 150 characters of a title or description. */
const LISTED_CHARACTERS = 150;
const RECENT = 20;

const head = (text: string) => [...text.trim()].slice(0, LISTED_CHARACTERS).join("").trim();

export function tiktokReader(api: TiktokApi) {
  return {
    async find(account: AccountAuth, lookup: FindLookup): Promise<PublishedPost | null> {
      const wanted = head(lookup.text);
      // `settings.title` is a video's caption when it is set (publish.ts).
      const title = lookup.settings?.title;
      const caption = typeof title === "string" && title !== "" ? head(title) : wanted;
      // A post without text cannot be told apart from the creator's others.
      if (lookup.replyTo || (wanted === "" && caption === "")) return null;
      const { data } = await api.post(
        "find",
        "video/list/?fields=id,title,video_description,share_url,create_time",
        { max_count: RECENT },
        videoList,
        { write: false },
      );
      const matches = (value: string | null | undefined) =>
        value != null && value !== "" && (head(value) === wanted || head(value) === caption);
      const found = data.videos.find((video) => matches(video.title) || matches(video.video_description));
      return found ? { id: found.id, url: api.postUrl(account.handle, found.id) } : null;
    },

    async insights(_account: AccountAuth, postId: string): Promise<PostMetrics> {
      const { data } = await api.post(
        "insights",
        "video/query/?fields=id,like_count,comment_count,share_count,view_count",
        { filters: { video_ids: [postId] } },
        videoList,
        { write: false },
      );
      const video = data.videos.find((v) => v.id === postId);
      if (!video)
        throw new PlatformError("TikTok does not show this post (deleted, or not public).", {
          kind: "permanent",
          code: "post_not_found",
        });
      return withEngagement({
        impressions: video.view_count ?? 0,
        likes: video.like_count ?? 0,
        comments: video.comment_count ?? 0,
        shares: video.share_count ?? 0,
        quotes: 0,
        saves: 0,
      });
    },
  };
}
