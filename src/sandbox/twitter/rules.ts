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
