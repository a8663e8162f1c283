// The facts the Facebook emulator enforces, each stated from developers.facebook.com (docs/platforms.md,
// Facebook › The emulator): the Graph API's versioned paths and reading conventions (`fields` with nested
// `{…}` and modifiers `.summary(true).limit(0)`, cursor paging, times as "2019-04-05T07:56:32+0000";
// Graph API › Overview, Field Expansion, Paginated Results), its id scheme (a Page post is
// `<page id>_<post id>`, a video or reel a bare video id, ids growing with time), a story's 24 h, and
// who a sandbox Page is (its id, its name, its owner).
import { fromBase64Url, toBase64Url, utf8 } from "../../lib/encoding";
import type { Emulated, LedgerPost } from "../emulator";
import { refuse } from "../emulator";

/** The version segment of every Graph API path (`/v25.0/…`). */
export const V = "/:version{v\\d+\\.\\d+}";

/** A Page story is up for 24 h; its insights and fields go with it (Facebook Stories API). */
export const STORY_SECONDS = 24 * 3600;

/**
 * A fresh object id that grows with the emulator's clock, as Facebook's ids do (a later post has the
 * larger id): the time in ms, then 4 random digits so that ids made in the same ms still differ.
 */
export function freshId(now: number): string {
  const random = crypto.getRandomValues(new Uint16Array(1))[0]! % 10_000;
  return `${Math.floor(now)}${String(random).padStart(4, "0")}`;
}

/** A video's or reel's Graph id is a bare video id; everything else the Page posts is `<page id>_<post id>`. */
export const isVideoId = (id: string) => /^\d+$/.test(id);

/** The ledger post a Graph id names: a post `<page>_<post>`, a video or reel, or a video's feed post. */
export async function postNamed(e: Emulated, id: string): Promise<LedgerPost | null> {
  if (!/^\d+(_\d+)?$/.test(id)) return null;
  const direct = await e.post(id);
  if (direct) return direct;
  const video = /^\d+_(\d+)$/.exec(id)?.[1];
  return video ? e.post(video) : null;
}

/** Whether `post` is a story past its 24 h (on the sandbox's clock): gone, as Facebook removes it. */
export async function expiredStory(e: Emulated, post: LedgerPost): Promise<boolean> {
  if ((await e.object(post.id))?.kind !== "story") return false;
  return Date.parse(post.published_at) + e.scaledMs(STORY_SECONDS) <= e.now();
}

/** An http(s) URL Facebook could fetch, else the Graph API's refusal. */
export function fetchable(name: string, value: string | null): string {
  if (!value || !URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol))
    return refuse(400, "invalid_request", `(#100) ${name} should represent a valid URL`, { code: 100 });
  return value;
}

/** The top-level names of a `fields` parameter: `a,b.summary(true),c{d,e}` → a, b, c. */
export function fieldNames(fields: string | undefined): string[] {
  if (!fields) return [];
  const names: string[] = [];
  let depth = 0;
  let current = "";
  for (const char of fields) {
    if (char === "{" || char === "(") depth++;
    if (char === "}" || char === ")") depth--;
    if (char === "," && depth === 0) {
      names.push(current);
      current = "";
    } else current += char;
  }
  names.push(current);
  return names.map((name) => name.trim().split(/[.{(]/)[0]!.trim()).filter(Boolean);
}

/** A Graph API time. */
export const graphTime = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "+0000");

const cursorOf = (index: number) => toBase64Url(utf8(String(index)));
function indexOf(cursor: string | undefined): number {
  if (!cursor) return 0;
  try {
    const value = Number(new TextDecoder().decode(fromBase64Url(cursor)));
    return Number.isInteger(value) && value >= 0 ? value : 0;
  } catch {
    return 0;
  }
}

/** One page of `items` as the Graph API pages an edge; `url` is the edge's address for `next`. */
export function paged<T>(items: T[], query: URLSearchParams, url: string, max = 100) {
  const limit = Math.min(Math.max(Number(query.get("limit") ?? 25) || 25, 1), max);
  const start = indexOf(query.get("after") ?? undefined);
  const data = items.slice(start, start + limit);
  const end = start + data.length;
  const paging: Record<string, unknown> = {
    cursors: { before: cursorOf(start), after: cursorOf(Math.max(end - 1, start)) },
  };
  if (end < items.length) {
    const next = new URL(url);
    next.searchParams.delete("appsecret_proof");
    next.searchParams.delete("access_token");
    next.searchParams.set("after", cursorOf(end));
    paging.cursors = { before: cursorOf(start), after: cursorOf(end) };
    paging.next = next.toString();
  }
  return data.length === 0 ? { data } : { data, paging };
}

/** Only the requested fields of an object (all of it when none are named), `id` always. */
export function pick(object: Record<string, unknown>, names: string[]): Record<string, unknown> {
  if (names.length === 0) return object;
  const picked: Record<string, unknown> = {};
  for (const name of ["id", ...names]) if (object[name] !== undefined) picked[name] = object[name];
  return picked;
}

/** The user who owns a sandbox Page: `<user>-page` and `<user>-shop` (src/sandbox/channels.ts). */
export const ownerOf = (handle: string) => /^(.+)-(page|shop)$/.exec(handle)?.[1] ?? null;

/** A Page's display name, as /me/accounts gives it. */
export function pageName(handle: string): string {
  const match = /^(.+)-(page|shop)$/.exec(handle);
  if (!match) return handle;
  return `${match[1]}'s ${match[2] === "page" ? "Page" : "Shop"}`;
}
