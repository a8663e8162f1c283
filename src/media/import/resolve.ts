// Resolution of import URLs inside the request, so the answer lists every item: a direct image or video
// link gives one candidate (Content-Type confirmed by the first bytes), an HTML page gives one per
// Open Graph / Twitter Card media tag it carries. Only the first bytes of media move here; the queue
// consumer fetches the bodies.

import { FetchFailure, statusFailure } from "../../lib/fetch-failure";
import { checkImportUrl, type FetchBudget, guardedFetch, type ImportGuard } from "../../lib/url-guard";
import { capFor, MAX_MEDIA_PER_PAGE, MAX_PAGE_BYTES, type MediaLimits, RESOLVE_TIMEOUT_MS } from "../config";
import { lastSegment, mediaName } from "../names";
import {
  type Declared,
  declaredType,
  looksLikeMarkup,
  type MediaKind,
  SNIFF_BYTES,
  sniffMedia,
} from "../sniff";
import { declaredLength, readHead } from "../streams";

export type Candidate = {
  /** The URL the consumer downloads (redirects are followed, and checked, again there). */
  url: string;
  name: string;
  mime: string;
  kind: MediaKind;
  /** The origin's Content-Length, 0 when unknown until the download. */
  size: number;
};

export type ResolveOptions = {
  guard: ImportGuard;
  limits: MediaLimits;
  /** Epoch ms after which no new fetch starts. */
  stopAt: number;
  /** What is left of the request's fetch budget (every page, media link and redirect hop counts). */
  fetches: FetchBudget;
};

export const FETCH_HEADERS = {
  "user-agent": "Mozilla/5.0 (compatible; SocialPublishingMediaImporter/1.0)",
  accept: "text/html,application/xhtml+xml,image/*,video/*;q=0.9,*/*;q=0.8",
  "accept-encoding": "identity",
};

/** Meta tags (property= or name=) whose content is a media URL. */
const MEDIA_META = new Set([
  "og:image",
  "og:image:url",
  "og:image:secure_url",
  "og:video",
  "og:video:url",
  "og:video:secure_url",
  "twitter:image",
  "twitter:image:src",
  "twitter:player:stream",
]);

/** Every input, in order, each giving zero or more candidates; at most `concurrency` fetches at once. */
export async function resolveAll(
  inputs: string[],
  options: ResolveOptions,
  concurrency = 6,
): Promise<Candidate[][]> {
  const results: Candidate[][] = inputs.map(() => []);
  let next = 0;
  const worker = async () => {
    while (next < inputs.length) {
      const index = next++;
      if (Date.now() >= options.stopAt) continue;
      results[index] = await resolveInput(inputs[index]!, options);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, inputs.length) }, worker));
  return results;
}

/** One input: a direct media link or a page. Anything refused or unreachable gives no candidate. */
export async function resolveInput(input: string, options: ResolveOptions): Promise<Candidate[]> {
  if (!checkImportUrl(input, options.guard.allow).ok) return [];
  try {
    const { response, url } = await open(input, options);
    if (declaredType(response.headers.get("content-type")) === "page") {
      const found = await pageMedia(response, url);
      const resolved = await Promise.all(found.map((link) => resolveDirect(link, options)));
      return resolved.filter((c): c is Candidate => c !== null);
    }
    return [await inspect(input, response, url, options.limits)];
  } catch (error) {
    if (!(error instanceof FetchFailure)) console.warn("media import: resolving a URL failed", error);
    return [];
  }
}

async function resolveDirect(link: string, options: ResolveOptions): Promise<Candidate | null> {
  try {
    const { response, url } = await open(link, options);
    return await inspect(link, response, url, options.limits);
  } catch (error) {
    if (!(error instanceof FetchFailure))
      console.warn("media import: resolving a page's media failed", error);
    return null;
  }
}

async function open(link: string, options: ResolveOptions) {
  const budget = Math.min(RESOLVE_TIMEOUT_MS, options.stopAt - Date.now());
  if (budget <= 0) throw new FetchFailure("out of time", false);
  const opened = await guardedFetch(link, {
    guard: options.guard,
    fetches: options.fetches,
    headers: FETCH_HEADERS,
    signal: AbortSignal.timeout(budget),
  });
  if (!opened.response.ok) {
    await opened.response.body?.cancel();
    throw statusFailure(opened.response.status);
  }
  return opened;
}

/** A response that must be an image or a video: its first bytes decide, the rest is never read. */
async function inspect(link: string, response: Response, url: URL, limits: MediaLimits): Promise<Candidate> {
  const declared = declaredType(response.headers.get("content-type"));
  const { head, body } = await readHead(response.body ?? new ReadableStream(), SNIFF_BYTES);
  await body.cancel();
  return describe(link, url, declared, head, declaredLength(response), limits);
}

/** The rules for a direct link, shared with the consumer's re-check. */
export function describe(
  link: string,
  finalUrl: URL,
  declared: Declared,
  head: Uint8Array,
  length: number | null,
  limits: MediaLimits,
): Candidate {
  if (declared === "page" || declared === "other") throw new FetchFailure(`not media (${declared})`, true);
  const sniffed = sniffMedia(head);
  if (!sniffed) {
    throw new FetchFailure(looksLikeMarkup(head) ? "markup served as media" : "unrecognised bytes", true);
  }
  if ((declared === "image" || declared === "video") && declared !== sniffed.kind) {
    throw new FetchFailure(`declared ${declared} but the bytes are ${sniffed.mime}`, true);
  }
  if (length !== null && length > capFor(limits, sniffed.kind)) {
    throw new FetchFailure(`larger than the ${sniffed.kind} cap`, true);
  }
  return {
    url: link,
    name: mediaName(lastSegment(finalUrl), sniffed),
    mime: sniffed.mime,
    kind: sniffed.kind,
    size: length ?? 0,
  };
}

/** The media URLs a page announces in its meta tags, absolute, in document order, without repeats. */
export async function pageMedia(response: Response, pageUrl: URL): Promise<string[]> {
  const found: string[] = [];
  const rewriter = new HTMLRewriter().on("meta", {
    element(element) {
      const key = (element.getAttribute("property") ?? element.getAttribute("name") ?? "")
        .trim()
        .toLowerCase();
      const content = element.getAttribute("content")?.trim();
      if (!MEDIA_META.has(key) || !content) return;
      try {
        const url = new URL(decodeEntities(content), pageUrl).href;
        if (!found.includes(url) && found.length < MAX_MEDIA_PER_PAGE) found.push(url);
      } catch {}
    },
  });
  const body = (response.body ?? new ReadableStream()).pipeThrough(truncate(MAX_PAGE_BYTES));
  const transformed = rewriter.transform(new Response(body, { headers: { "content-type": "text/html" } }));
  const reader = transformed.body!.getReader();
  while (!(await reader.read()).done) {}
  return found;
}

/** Passes the first `limit` bytes and then ends the stream, cancelling the source. */
function truncate(limit: number): TransformStream<Uint8Array, Uint8Array> {
  let seen = 0;
  return new TransformStream({
    transform(chunk, controller) {
      const room = limit - seen;
      seen += chunk.byteLength;
      controller.enqueue(chunk.byteLength > room ? chunk.subarray(0, room) : chunk);
      if (seen >= limit) controller.terminate();
    },
  });
}

const NAMED: Record<string, string> = { amp: "&", quot: '"', apos: "'", lt: "<", gt: ">", nbsp: "\u00a0" };

/** HTMLRewriter hands attribute values over as written; og:image URLs often carry &amp;. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (match, entity: string) => {
    if (entity[0] === "#") {
      const code =
        entity[1] === "x" || entity[1] === "X"
          ? Number.parseInt(entity.slice(2), 16)
          : Number(entity.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : match;
    }
    return NAMED[entity.toLowerCase()] ?? match;
  });
}
