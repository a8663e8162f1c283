// What the Instagram emulator enforces, as developers.facebook.com › Instagram Platform states it: a
// caption's limits, a carousel's size, the publishing quota, how long a story has insights, the metric
// names each media product accepts, and the id format (Meta's ids grow with time).
import { growingIds } from "../meta-ids";

/** A caption's length, and its hashtags and @ tags (IG User Media › caption). */
export const CAPTION_MAX = 2200;
export const HASHTAGS_MAX = 30;
export const MENTIONS_MAX = 20;
/** How long a story has insights (Instagram Media Insights › Limitations). */
export const STORY_INSIGHTS_MS = 24 * 3_600_000;
/** A carousel's children (IG User Media › children). */
export const CAROUSEL = { min: 2, max: 10 };
/** API-published posts in a moving 24 hours (IG User Content Publishing Limit). */
export const QUOTA_TOTAL = 100;
export const QUOTA_SECONDS = 86_400;
/**
 * A carousel's photo is fetched and processed asynchronously like any container: it is IN_PROGRESS this
 * long after it is made, so a carousel made of children whose status was not checked is refused (9007).
 */
export const CAROUSEL_PHOTO_PROCESSING_MS = 1_000;

/** A fresh Instagram media or container id: 17 digits, growing with time as Instagram's do. */
export const mediaId = growingIds("18", 17);

/** The metric names Instagram Media Insights accepts for each media product type. */
export const METRICS: Record<string, readonly string[]> = {
  FEED: [
    "comments",
    "follows",
    "likes",
    "profile_activity",
    "profile_visits",
    "reach",
    "saved",
    "shares",
    "total_interactions",
    "views",
  ],
  REELS: [
    "comments",
    "ig_reels_avg_watch_time",
    "ig_reels_video_view_total_time",
    "likes",
    "reach",
    "saved",
    "shares",
    "total_interactions",
    "views",
  ],
  STORY: [
    "follows",
    "navigation",
    "profile_activity",
    "profile_visits",
    "reach",
    "replies",
    "shares",
    "total_interactions",
    "views",
  ],
};
