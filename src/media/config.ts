// Size and time caps of the media library, from env vars with defaults (see docs/guide.md, "Media").
import type { MediaKind } from "./sniff";

export type MediaLimits = {
  /** Largest image, in bytes (imports and uploads). */
  image: number;
  /** Largest video, in bytes (imports and uploads). */
  video: number;
  /** Wall time of one download by the queue consumer, redirects included, in milliseconds. */
  downloadMs: number;
  /** Bytes one workspace may store in all (items being imported and uploads under way count with the bytes they hold). */
  quota: number;
};

export const DEFAULT_LIMITS: MediaLimits = {
  image: 20 * 1024 * 1024,
  video: 1024 * 1024 * 1024,
  downloadMs: 300_000,
  quota: 10 * 1024 * 1024 * 1024,
};

/** Page resolution in the request: each URL (redirects and the HTML page read included). */
export const RESOLVE_TIMEOUT_MS = 10_000;
/** The part of a page read for its meta tags. */
export const MAX_PAGE_BYTES = 2 * 1024 * 1024;
/** Time an import request spends resolving URLs and pages; inputs not started by then are skipped. */
export const RESOLVE_BUDGET_MS = 25_000;
/** URLs one import request may name. */
export const MAX_URLS_PER_REQUEST = 50;
/** Media taken from one page, and items created by one request. */
export const MAX_MEDIA_PER_PAGE = 10;
export const MAX_ITEMS_PER_REQUEST = 100;
/** Fetches one import request may make in all: pages, their media and every redirect hop. */
export const MAX_FETCHES_PER_IMPORT = 100;

type LimitVars = Partial<
  Record<
    | "MEDIA_MAX_IMAGE_BYTES"
    | "MEDIA_MAX_VIDEO_BYTES"
    | "MEDIA_IMPORT_TIMEOUT_SECONDS"
    | "MEDIA_WORKSPACE_QUOTA_BYTES",
    string
  >
>;

const positive = (value: string | undefined, fallback: number) => {
  const n = Number(value?.trim());
  return value?.trim() && Number.isSafeInteger(n) && n > 0 ? n : fallback;
};

export function mediaLimits(env: LimitVars): MediaLimits {
  return {
    image: positive(env.MEDIA_MAX_IMAGE_BYTES, DEFAULT_LIMITS.image),
    video: positive(env.MEDIA_MAX_VIDEO_BYTES, DEFAULT_LIMITS.video),
    downloadMs: positive(env.MEDIA_IMPORT_TIMEOUT_SECONDS, DEFAULT_LIMITS.downloadMs / 1000) * 1000,
    quota: positive(env.MEDIA_WORKSPACE_QUOTA_BYTES, DEFAULT_LIMITS.quota),
  };
}

export const capFor = (limits: MediaLimits, kind: MediaKind) => limits[kind];

const mb = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

export const quotaUsedUp = (limits: MediaLimits) =>
  `The workspace's storage quota of ${mb(limits.quota)} is used up: delete media to make room.`;

/** `left`: the bytes the file could still take. */
export const quotaExceeded = (limits: MediaLimits, left: number) =>
  `The file would exceed the workspace's storage quota of ${mb(limits.quota)} (${mb(Math.max(0, left))} left).`;
