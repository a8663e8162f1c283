// What the Threads emulator enforces, as developers.facebook.com › Threads states it: a post's text, a
// carousel's size, a topic tag, the reply controls, the insight metrics, and the id format (Meta's ids
// grow with time).
import { growingIds } from "../meta-ids";

/** Characters of a post's text (Threads › Posts › text). */
export const TEXT_MAX = 500;
/** A carousel's children (Threads › Posts › Carousel posts). */
export const CAROUSEL = { min: 2, max: 20 };
export const TOPIC_TAG_MAX = 50;
export const REPLY_CONTROLS = [
  "everyone",
  "accounts_you_follow",
  "mentioned_only",
  "parent_post_author_only",
  "followers_only",
];

/** A fresh Threads post or container id: 18 digits, growing with time as Threads' do. */
export const mediaId = growingIds("17", 18);

/** The metrics Threads Insights gives a post (Threads › Insights › Media insights). */
export const METRICS = ["views", "likes", "replies", "reposts", "quotes", "shares"] as const;
