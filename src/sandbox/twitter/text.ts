// How X's API shows a post's text back (docs.x.com › X API › Posts): `&`, `<` and `>` escaped, links as
// t.co links, and one more t.co link appended for a post with media.
import { linksOf } from "./rules";

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
