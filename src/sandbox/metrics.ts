// The sandbox's engagement numbers and comments: made up, but a function of (platform, post id, whole
// minutes since publication) only, so tests and demos can rely on them. Every count grows with time and
// levels off after a week; none ever goes down. `comments` is exactly the number of comments listed.
import type { Platform } from "../db/enums";
import { utf8 } from "../lib/encoding";
import { withEngagement } from "../platforms/metrics";
import { digits } from "../platforms/sandbox/ids";
import type { PostMetrics } from "../platforms/types";

/** Counts stop growing this many minutes after publication. */
export const PLATEAU_MINUTES = 7 * 24 * 60;
/** Minutes after which a post has gained half of its eventual extra impressions. */
const HALF_LIFE_MINUTES = 120;

export type SandboxComment = {
  id: string;
  text: string;
  author: { name: string; username: string };
  /** Unix ms. */
  created_at: number;
  /** The comment this one answers (a follower's reply), by its id here; null for a top-level one. */
  parent_id: string | null;
  /** Hidden from the public by the account. */
  hidden: boolean;
};

const digest = async (label: string) => new Uint8Array(await crypto.subtle.digest("SHA-256", utf8(label)));

/** The bytes every number of a post is drawn from. */
export const postSeed = (platform: Platform, postId: string) => digest(`sandbox-post:${platform}:${postId}`);

/** Whole minutes from `publishedAt` to `now`, never negative. */
export const minutesSince = (publishedAt: number, now: number) =>
  Math.max(0, Math.floor((now - publishedAt) / 60_000));

/** The post's metrics `minutes` whole minutes after publication. */
export function metricsAt(platform: Platform, seed: Uint8Array, minutes: number): PostMetrics {
  const byte = (i: number) => seed[i] ?? 0;
  const reach = Math.min(Math.max(0, Math.floor(minutes)), PLATEAU_MINUTES);
  const start = 20 + (byte(0) % 80);
  const extra = 500 + (((byte(1) << 8) | byte(2)) % 9500);
  // reach / (reach + half-life) only grows with reach, so each floor below never decreases.
  const impressions = start + Math.floor((extra * reach) / (reach + HALF_LIFE_MINUTES));
  const likes = Math.floor((impressions * (2 + (byte(3) % 9))) / 100);
  // One from the start, up to about fifty once the post levels off: few enough to list in full.
  const comments = 1 + Math.floor((impressions * (2 + (byte(4) % 4))) / 1000);
  const shares = Math.floor((likes * (byte(5) % 15)) / 100);
  const quotes =
    platform === "twitter" || platform === "threads" ? Math.floor((shares * (byte(6) % 50)) / 100) : 0;
  const saves = Math.floor((likes * (byte(7) % 25)) / 100);
  return withEngagement({ comments, likes, shares, impressions, quotes, saves });
}

/** The first minute at which the post has more than `index` comments (counts never decrease). */
function minuteOfComment(platform: Platform, seed: Uint8Array, index: number): number {
  let low = 0;
  let high = PLATEAU_MINUTES;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (metricsAt(platform, seed, middle).comments > index) high = middle;
    else low = middle + 1;
  }
  return low;
}

const FIRST_NAMES = [
  "Ada",
  "Grace",
  "Alan",
  "Katherine",
  "Linus",
  "Margaret",
  "Dennis",
  "Radia",
  "Ken",
  "Barbara",
];
const LAST_NAMES = ["Lovelace", "Hopper", "Turing", "Johnson", "Torvalds", "Hamilton", "Ritchie", "Perlman"];
const PHRASES = [
  "Great post!",
  "Thanks for sharing this.",
  "Interesting, tell us more.",
  "I had the same experience.",
  "Where can I read more about it?",
  "Saved for later.",
  "This made my day.",
  "Couldn't agree more.",
  "What a thread!",
  "Following for updates.",
];

/** Comment `index` of a post: the same id, author, text and time on every call. */
async function commentOf(
  platform: Platform,
  postId: string,
  publishedAt: number,
  minute: number,
  index: number,
): Promise<SandboxComment> {
  const bytes = await digest(`sandbox-comment:${platform}:${postId}:${index}`);
  const first = FIRST_NAMES[(bytes[0] ?? 0) % FIRST_NAMES.length]!;
  const last = LAST_NAMES[(bytes[1] ?? 0) % LAST_NAMES.length]!;
  const jitter = (((bytes[2] ?? 0) << 8) | (bytes[3] ?? 0)) % 60_000;
  return {
    id: digits(bytes, 19),
    text: PHRASES[(bytes[4] ?? 0) % PHRASES.length]!,
    author: { name: `${first} ${last}`, username: `${first}_${last}_${(bytes[5] ?? 0) % 100}`.toLowerCase() },
    // Within the minute before the one it appears in, so it is never later than the moment it is seen.
    created_at: minute === 0 ? publishedAt : publishedAt + (minute - 1) * 60_000 + jitter,
    parent_id: null,
    hidden: false,
  };
}

/** The comments a post has `minutes` whole minutes after publication, oldest first. */
export async function commentsAt(
  platform: Platform,
  postId: string,
  publishedAt: number,
  minutes: number,
): Promise<SandboxComment[]> {
  const seed = await postSeed(platform, postId);
  const count = metricsAt(platform, seed, minutes).comments;
  const comments: SandboxComment[] = [];
  for (let index = 0; index < count; index++) {
    const minute = minuteOfComment(platform, seed, index);
    comments.push(await commentOf(platform, postId, publishedAt, minute, index));
  }
  return comments.sort((a, b) => a.created_at - b.created_at || a.id.localeCompare(b.id));
}
