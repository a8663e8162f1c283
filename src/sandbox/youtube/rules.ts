// What the YouTube emulator enforces, each stated from Google's documentation (not from the adapter): the
// upload's chunk unit and size cap, the assignable categories, videos.insert's metadata limits, the
// comment text limits, the id schemes (11-character video ids; channel and uploads playlist ids) and the
// Data API's list conventions (`part`, `maxResults`, `pageToken`) with the error reasons they trigger.
// developers.google.com › YouTube Data API › Videos: insert; Resumable uploads; CommentThreads: insert;
// Errors; VideoCategories: list.
import { z } from "zod";
import { toBase64Url } from "../../lib/encoding";
import { refuse } from "../emulator";

/**
 * videos.insert's metadata limits (Videos resource: snippet.title 100 characters, snippet.description
 * 5000 bytes, snippet.tags 500 characters counted with quotes and commas) and a comment's text
 * (CommentThreads: 10,000 characters).
 */
export const LIMITS = { title: 100, descriptionBytes: 5000, tags: 500, comment: 10_000 } as const;

/** What the route groups read of a request: its query, its headers and the raw request. */
export type Req = {
  query(name: string): string | undefined;
  header(name: string): string | undefined;
  raw: Request;
};

/** Google requires every chunk but the last to be a multiple of 256 KiB. */
export const CHUNK_UNIT = 256 * 1024;
/** What one PUT may carry here: the adapter's chunks are 8 MiB; bigger ones are refused, not held. */
export const EMULATED_CHUNK_MAX = 32 * 1024 * 1024;
/** YouTube's largest upload: 256 GB. */
export const MAX_VIDEO_BYTES = 256 * 1024 ** 3;
/** The categories a video can be assigned to (videoCategories.list, regionCode=US, assignable). */
export const CATEGORIES = new Set([
  "1",
  "2",
  "10",
  "15",
  "17",
  "19",
  "20",
  "22",
  "23",
  "24",
  "25",
  "26",
  "27",
  "28",
  "29",
]);

export const etag = () => toBase64Url(crypto.getRandomValues(new Uint8Array(20)));
export const randomId = (length: number) =>
  toBase64Url(crypto.getRandomValues(new Uint8Array(32))).slice(0, length);
/** A video id: 11 characters of [A-Za-z0-9_-]. */
export const newVideoId = () => randomId(11);
/** A comment thread id, in YouTube's style. */
export const newThreadId = () => `Ugz${randomId(19)}4AaABAg`;

/** The uploads playlist of a channel: its id with UC turned into UU. */
export const uploadsOf = (channelId: string) => `UU${channelId.slice(2)}`;

/** The `part` parameter: required, each part one of `allowed`. */
export function partsOf(req: Req, allowed: readonly string[]): Set<string> {
  const raw = req.query("part");
  if (!raw)
    return refuse(400, "invalid_request", "No filter selected. Expected one of: part", { code: "required" });
  const parts = raw.split(",").map((p) => p.trim());
  const unknown = parts.find((p) => !allowed.includes(p));
  if (unknown)
    return refuse(400, "invalid_request", `'${unknown}' is not a valid value for the part parameter.`, {
      code: "unknownPart",
    });
  return new Set(parts);
}

export function maxResultsOf(req: Req, fallback: number, max: number): number {
  const raw = req.query("maxResults");
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > max)
    return refuse(
      400,
      "invalid_request",
      `Invalid value '${raw}'. Values must be within the range: [0, ${max}]`,
      {
        code: "invalidParameter",
      },
    );
  return n;
}

/** A page of `items` from the pageToken offset: Google's pageToken/nextPageToken. */
export function paged<T>(req: Req, items: T[], size: number) {
  const token = req.query("pageToken");
  const offset = token && /^CA[A-Za-z0-9_-]+$/.test(token) ? Number.parseInt(token.slice(2), 36) || 0 : 0;
  const page = items.slice(offset, offset + size);
  const next = offset + size < items.length ? `CA${(offset + size).toString(36)}` : undefined;
  return { page, next, total: items.length };
}

export const listAnswer = (
  kind: string,
  items: unknown[],
  perPage: number,
  total: number,
  next?: string,
) => ({
  kind,
  etag: etag(),
  ...(next ? { nextPageToken: next } : {}),
  pageInfo: { totalResults: total, resultsPerPage: perPage },
  items,
});

const noAngles = (what: string) => (value: string) =>
  !/[<>]/.test(value) || `${what} must not contain < or >`;
export const videoResource = z.object({
  snippet: z.object({
    title: z.string(),
    description: z.string().optional(),
    tags: z.array(z.string()).optional(),
    categoryId: z.string().optional(),
    defaultLanguage: z.string().optional(),
  }),
  status: z
    .object({
      privacyStatus: z.enum(["public", "unlisted", "private"]).optional(),
      selfDeclaredMadeForKids: z.boolean().optional(),
      embeddable: z.boolean().optional(),
      license: z.enum(["youtube", "creativeCommon"]).optional(),
      publicStatsViewable: z.boolean().optional(),
      publishAt: z.string().optional(),
      containsSyntheticMedia: z.boolean().optional(),
    })
    .optional(),
});
export type VideoResource = z.infer<typeof videoResource>;

/** videos.insert's documented refusals of the metadata. */
export function checkMetadata(video: VideoResource) {
  const { title, description = "", tags = [], categoryId } = video.snippet;
  const titleCheck = noAngles("The title")(title);
  if (title.trim() === "" || [...title].length > LIMITS.title || titleCheck !== true)
    refuse(400, "invalid_request", "The request metadata specifies an invalid or empty video title.", {
      code: "invalidTitle",
    });
  if (
    new TextEncoder().encode(description).byteLength > LIMITS.descriptionBytes ||
    noAngles("The description")(description) !== true
  )
    refuse(400, "invalid_request", "The request metadata specifies an invalid video description.", {
      code: "invalidDescription",
    });
  // Tags count with quotes around those with spaces, and commas between them.
  const tagLength =
    tags.reduce((sum, tag) => sum + tag.length + (tag.includes(" ") ? 2 : 0), 0) +
    Math.max(0, tags.length - 1);
  if (tagLength > LIMITS.tags)
    refuse(400, "invalid_request", "The request metadata specifies invalid video keywords.", {
      code: "invalidTags",
    });
  if (categoryId !== undefined && !CATEGORIES.has(categoryId))
    refuse(400, "invalid_request", "The video's category is not valid.", { code: "invalidCategoryId" });
}

export function checkCommentText(text: string) {
  if (text.trim() === "")
    refuse(400, "invalid_request", "The comment's text is empty.", { code: "commentTextRequired" });
  if ([...text].length > LIMITS.comment)
    refuse(400, "invalid_request", "The comment's text is too long.", { code: "commentTextTooLong" });
}
