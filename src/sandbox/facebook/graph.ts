// The Graph API's reading conventions the Facebook emulator answers with: `fields` (with nested
// `{…}` and modifiers `.summary(true).limit(0)`), cursor paging (`limit`, `after`, `paging.cursors`),
// times as "2019-04-05T07:56:32+0000", and who a Page is (its id, its name, its owner).
// developers.facebook.com › Graph API › Overview (Fields, Field Expansion), Paginated Results.
import { fromBase64Url, toBase64Url, utf8 } from "../../lib/encoding";

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

/** The user who owns a sandbox Page: `<user>-page` and `<user>-shop` (src/platforms/sandbox/channels.ts). */
export const ownerOf = (handle: string) => /^(.+)-(page|shop)$/.exec(handle)?.[1] ?? null;

/** A Page's display name, as /me/accounts gives it. */
export function pageName(handle: string): string {
  const match = /^(.+)-(page|shop)$/.exec(handle);
  if (!match) return handle;
  return `${match[1]}'s ${match[2] === "page" ? "Page" : "Shop"}`;
}
