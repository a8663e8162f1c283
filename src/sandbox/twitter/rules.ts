// The facts the X emulator enforces, from X's documentation: its text counting (docs.x.com ›
// Fundamentals › Counting characters, by X's own library twitter-text, not the adapter's code), its
// Snowflake ids, and media ids' lifetimes.
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
