// How X counts and shows a post's text (docs.x.com › Fundamentals › Counting characters): the text is
// NFC-normalised, every URL counts 23 characters (its t.co link), an emoji counts 2, a code point in the
// Latin, general punctuation and similar ranges counts 1 and every other (CJK, …) counts 2; the limit is
// 280. Shown back, `&`, `<` and `>` are escaped and links are t.co links, one more appended per post with
// media.

export const WEIGHTED_LIMIT = 280;
const URL_WEIGHT = 23;

/** The code point ranges of weight 1 (twitter-text v3's config); everything else weighs 2. */
const LIGHT: ReadonlyArray<readonly [number, number]> = [
  [0, 4351],
  [8192, 8205],
  [8208, 8223],
  [8242, 8247],
];

const URL = /https?:\/\/[^\s<>"]+/giu;
const EMOJI = /\p{Extended_Pictographic}/u;

const weightOf = (codePoint: number) =>
  LIGHT.some(([start, end]) => codePoint >= start && codePoint <= end) ? 1 : 2;

/** The text's length as X counts it against its 280. */
export function weightedLength(raw: string): number {
  const text = raw.normalize("NFC");
  let length = 0;
  const rest = text.replace(URL, () => {
    length += URL_WEIGHT;
    return "";
  });
  const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" }).segment(rest);
  for (const { segment } of graphemes) {
    if (EMOJI.test(segment)) length += 2;
    else for (const char of segment) length += weightOf(char.codePointAt(0)!);
  }
  return length;
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
  const links = await Promise.all([...text.matchAll(URL)].map((match) => tco(match[0])));
  let index = 0;
  const shortened = text.replace(URL, () => links[index++]!);
  const escaped = shortened.replace(/[&<>]/g, (char) => ESCAPES[char]!);
  if (!hasMedia) return escaped;
  const media = await tco(`media:${id}`);
  return escaped === "" ? media : `${escaped} ${media}`;
}
