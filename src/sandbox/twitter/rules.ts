// The facts the X emulator enforces, from X's documentation: its text counting (docs.x.com ›
// Fundamentals › Counting characters, by X's own library twitter-text, not the adapter's code), how its
// API shows a post's text back (docs.x.com › X API › Posts: `&`, `<` and `>` escaped, links as t.co
// links, one more t.co link appended for a post with media), its Snowflake ids (X IDs) and its media
// categories, sizes and lifetimes (Media best practices, Media upload).
import twitterText from "twitter-text";

/** X's limit as it counts (weighted length): 280 for an account without Premium. */
export const WEIGHTED_LIMIT = 280;

/** The text's weighted length: every link (with or without a scheme) 23, an emoji or a CJK character 2. */
export const weightedLength = (text: string) => twitterText.parseTweet(text).weightedLength;

/** The links X shortens to t.co links, as twitter-text finds them (`example.com/path` among them). */
export const linksOf = (text: string) =>
  twitterText
    .extractUrlsWithIndices(text)
    .map(({ url, indices }) => ({ url, start: indices[0], end: indices[1] }));

/**
 * X's epoch for Snowflake ids (docs.x.com › Fundamentals › X IDs: "the ID is a 64-bit unsigned integer
 * made of a timestamp, a worker number and a sequence number"; the timestamp is milliseconds since
 * 2010-11-04T01:42:54.657Z).
 */
export const SNOWFLAKE_EPOCH = 1288834974657;
/** Bits below the timestamp: 10 of worker (5 datacenter, 5 machine) and 12 of sequence. */
const LOW_BITS = 22n;
let sequence = 0;

/**
 * A Snowflake id for `now` (ms on the emulator's clock): posts and media ids grow with time, so two
 * posts published one after the other come back in order as numbers. The low bits count within this
 * isolate (worker 0), so ids drawn in the same millisecond keep their order too.
 */
export function snowflake(now: number): string {
  sequence = (sequence + 1) % 2 ** Number(LOW_BITS);
  return ((BigInt(Math.max(0, now - SNOWFLAKE_EPOCH)) << LOW_BITS) | BigInt(sequence)).toString();
}

/** A stable t.co link for `seed` (a URL, or a post's media). */
async function tco(seed: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(seed)));
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  return `https://t.co/${[...digest.slice(0, 10)].map((byte) => alphabet[byte % alphabet.length]).join("")}`;
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;" };

/** A post's `text` as X's API answers it: escaped, links shortened, a link to its media appended. */
export async function shownText(id: string, text: string, hasMedia: boolean): Promise<string> {
  let shortened = "";
  let from = 0;
  for (const link of linksOf(text)) {
    shortened += `${text.slice(from, link.start)}${await tco(link.url)}`;
    from = link.end;
  }
  shortened += text.slice(from);
  const escaped = shortened.replace(/[&<>]/g, (char) => ESCAPES[char]!);
  if (!hasMedia) return escaped;
  const media = await tco(`media:${id}`);
  return escaped === "" ? media : `${escaped} ${media}`;
}

/**
 * How long an upload session, then its finalized media id, lives: a day (`expires_after_secs`: 86400 in
 * X's FINALIZE example, counted from the FINALIZE: "the returned media id is only valid for
 * expires_after_secs seconds"; STATUS answers what is left, 3595 in its example).
 */
export const MEDIA_EXPIRES_SECONDS = 24 * 60 * 60;
/**
 * The longest `check_after_secs` X answers while processing (its STATUS examples say 5 and 10 s): the
 * seconds left, at least 1 and at most this.
 */
export const MAX_CHECK_AFTER_SECS = 10;
/** X takes segments of up to 5 MB, at most 999 of them. */
export const SEGMENT_MAX_BYTES = 5 * 1024 * 1024;
export const MAX_SEGMENT_INDEX = 999;

const MB = 1024 * 1024;
/**
 * Each category's media types, size limit and media-key prefix (docs.x.com › Media best practices; a
 * media key is `<prefix>_<media id>`).
 */
export const CATEGORIES = {
  tweet_image: {
    types: ["image/jpeg", "image/png", "image/webp", "image/bmp", "image/tiff"],
    max: 5 * MB,
    key: 3,
  },
  tweet_gif: { types: ["image/gif"], max: 15 * MB, key: 16 },
  tweet_video: { types: ["video/mp4", "video/quicktime", "video/webm"], max: 512 * MB, key: 7 },
  amplify_video: { types: ["video/mp4", "video/quicktime", "video/webm"], max: 512 * MB, key: 13 },
} as const;
export type Category = keyof typeof CATEGORIES;
