// The facts LinkedIn's emulator enforces, each stated from LinkedIn's documentation (docs/platforms.md ›
// LinkedIn › The emulator): lengths and counts (Posts API, Comments API, Videos API), how long a version
// stays active (Marketing API versioning), the Little Text Format a commentary is read in, the ids it
// hands out, and Rest.li 2.0's list and collection syntax.
import { utf8 } from "../../lib/encoding";
import { digits, letters } from "../../platforms/sandbox/ids";

/** The longest commentary (Posts API) and comment (Comments API), in characters. */
export const COMMENTARY_MAX = 3000;
export const COMMENT_MAX = 1250;
/** A multi-image post's images (MultiImage API). */
export const MULTI_IMAGE_MIN = 2;
export const MULTI_IMAGE_MAX = 20;
/** LinkedIn's video parts: 4 MiB each (the last one shorter). */
export const VIDEO_PART_BYTES = 4 * 1024 * 1024;
/** A video's size bounds (Videos API: 75 KB to 500 MB). */
export const VIDEO_MIN_BYTES = 75 * 1024;
export const VIDEO_MAX_BYTES = 500 * 1024 * 1024;
/** Upload URLs expire after a day. */
export const UPLOAD_URL_TTL_MS = 24 * 3_600_000;
/** The months a version stays active: at least a year (Marketing API versioning). */
export const SUPPORTED_MONTHS = 12;

/** LinkedIn "little" text as the reader sees it: the backslash escapes dropped. */
const unescapeAll = (text: string) => text.replace(/\\(.)/g, "$1");

/** A URL in the commentary: LinkedIn links it as written, a backslash in it included. */
const URL_IN_TEXT = /\b(?:https?:\/\/|www\.)[^\s<>]+/gi;

/**
 * The commentary as LinkedIn shows it (Little Text Format): a backslash escapes the character after it,
 * except inside a URL, which is linked as written (so an escaped URL keeps its backslashes and leads
 * elsewhere). A URL ends before the sentence punctuation after it and an escaped closing bracket.
 */
export function unescapeLittle(text: string): string {
  let out = "";
  let from = 0;
  for (const match of text.matchAll(URL_IN_TEXT)) {
    const url = match[0].replace(/(?:[.,;:!?'"]|\\[)\]}])+$/, "");
    out += unescapeAll(text.slice(from, match.index)) + url;
    from = match.index + url.length;
  }
  return out + unescapeAll(text.slice(from));
}

/**
 * A post's or comment's id: LinkedIn's activity ids are time-ordered, the milliseconds since the epoch
 * above their lowest 22 bits (7141138937766391808 >> 22 is December 2023), 19 digits today, so posts
 * created one after the other compare in order. Never below the last one handed out by this isolate.
 */
let lastActivity = 0n;
export function activityId(now: number): string {
  const random = BigInt(crypto.getRandomValues(new Uint32Array(1))[0]! & 0x3fffff);
  const drawn = (BigInt(Math.floor(now)) << 22n) | random;
  lastActivity = drawn > lastActivity ? drawn : lastActivity + 1n;
  return lastActivity.toString();
}

/** The time (epoch ms) an activity id was made at. */
export const activityTime = (id: string) => Number(BigInt(id) >> 22n);

/** A number of `count` digits derived from `label`: ids of organizations. */
export async function numberOf(label: string, count = 19) {
  return digits(new Uint8Array(await crypto.subtle.digest("SHA-256", utf8(label))), count);
}

/** A media id (images, videos, upload tokens): `C4` and letters. */
export const freshLetters = () =>
  `C4${letters(crypto.getRandomValues(new Uint8Array(24)), 17).replace(/[-_]/g, "x")}`;

/** `List(a,b)` of a Rest.li 2.0 query parameter (already percent-decoded), its items decoded once more. */
export function listOf(value: string | undefined): string[] | null {
  const inner = /^List\((.*)\)$/.exec(value ?? "")?.[1];
  if (inner === undefined) return null;
  if (inner === "") return [];
  return inner.split(",").map((item) => {
    try {
      return decodeURIComponent(item);
    } catch {
      return item;
    }
  });
}

/** A Rest.li collection answer. */
export const collection = (elements: unknown[], start = 0, total?: number) => ({
  paging: { start, count: elements.length, links: [], ...(total === undefined ? {} : { total }) },
  elements,
});
