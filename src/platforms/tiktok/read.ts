// Reading back from TikTok with the Display API: `find` (an earlier attempt's post by its text among the
// creator's 20 latest videos: TikTok keeps no hidden field for a fingerprint), a post's counts, and the
// token's revocation. TikTok offers apps no comment listing outside its Research API, so `comments` is
// empty, and no comment creation, so `reply` is refused.
// developers.tiktok.com › Display API (List Videos, Query Videos); Login Kit › Revoke a User Access Token.

import { callPlatform } from "../call";
import { platformClient } from "../client";
import { withEngagement } from "../metrics";
import {
  type AccountAuth,
  type FindLookup,
  PlatformError,
  type PostMetrics,
  type PublishedPost,
  type PublishingContext,
} from "../types";
import { HOSTS, type TiktokApi, tiktokFailure, tokenOf } from "./api";
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

/** POST /v2/oauth/revoke/: the app's client credentials and the user's token, as a form. */
export async function revokeToken(context: PublishingContext, account: AccountAuth): Promise<void> {
  const what = "TikTok token revocation";
  const body = new URLSearchParams({
    client_key: context.credentials.clientId,
    client_secret: context.credentials.clientSecret,
    token: tokenOf(account),
  });
  await callPlatform(
    context.fetch,
    what,
    platformClient(context, HOSTS).url("api", "/v2/oauth/revoke/"),
    {
      method: "POST",
      headers: { accept: "application/json", "content-type": "application/x-www-form-urlencoded" },
      body,
    },
    // An OAuth endpoint's text can echo what it was sent: never quoted.
    { quoteErrors: false, classify: tiktokFailure(what, false) },
  );
}

/** TikTok's public APIs cannot comment: the auto-plug has nowhere to go. */
export const noReply = () =>
  Promise.reject(
    new PlatformError("TikTok's API cannot post comments, so there is no reply to publish.", {
      kind: "permanent",
      code: "not_supported",
    }),
  );
