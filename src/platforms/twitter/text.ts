// How X counts a post's text (docs.x.com › Fundamentals › Counting characters): the text is NFC-normalised,
// every URL counts 23 characters (its t.co link), an emoji counts 2, a code point in the Latin, general
// punctuation and similar ranges counts 1 and every other (CJK, …) counts 2; the limit is 280.

export const WEIGHTED_LIMIT = 280;
const URL_WEIGHT = 23;

/** The code point ranges of weight 1 (twitter-text v3's config); everything else weighs 2. */
const LIGHT: ReadonlyArray<readonly [number, number]> = [
  [0, 4351],
  [8192, 8205],
  [8208, 8223],
  [8242, 8247],
];

export const URL_PATTERN = /https?:\/\/[^\s<>"]+/giu;
const EMOJI = /\p{Extended_Pictographic}/u;

const weightOf = (codePoint: number) =>
  LIGHT.some(([start, end]) => codePoint >= start && codePoint <= end) ? 1 : 2;

/** The text's length as X counts it against its 280. */
export function weightedLength(raw: string): number {
  const text = raw.normalize("NFC");
  let length = 0;
  const rest = text.replace(URL_PATTERN, () => {
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
