// What the Pinterest emulator enforces, each stated from Pinterest's own documentation (not from the
// adapter): the Create Pin field limits, the carousel size, the video storage's size cap, the analytics
// window, the id formats and the error codes its answers carry.
// developers.pinterest.com › API reference v5 › Create Pin (PinCreate), Get Pin analytics, Error model.

/** Create Pin's field limits (the PinCreate schema's maxLength). */
export const LIMITS = { title: 100, description: 800, link: 2048, alt_text: 500 } as const;
/** Images of a carousel (`multiple_image_urls`, `multiple_image_base64`): 2 to 5. */
export const CAROUSEL = { min: 2, max: 5 } as const;
/** The largest video the storage form takes here (its policy's content-length-range). */
export const UPLOAD_MAX_BYTES = 64 * 1024 * 1024;
/** Pinterest reports a Pin's analytics at most this many days back, and over at most this many days. */
export const ANALYTICS_MAX_DAYS = 90;
/** List Pins' `page_size`: 1 to 250, 25 when absent. */
export const PAGE_SIZE = { min: 1, max: 250, default: 25 } as const;

/**
 * Digits of the ids Pinterest hands out: users, Pins and boards 18, media 19. Pinterest's ids carry a
 * shard, a type and a per-shard counter (Pinterest Engineering, "Sharding Pinterest"), not a time: they
 * do not grow with time across the service, so the emulator's are random.
 */
export const ID_DIGITS = { user: 18, pin: 18, board: 18, media: 19 } as const;

/** The x-ratelimit-limit a 429 carries (Pinterest's observed form: the limit and its window). */
export const RATE_LIMIT_HEADERS = { limit: "100, 100;w=1" } as const;

/** Pinterest's error codes, as its answers carry them. */
export const CODE = {
  invalidParameters: 1,
  authentication: 2,
  rateLimited: 8,
  boardNotFound: 40,
  pinNotFound: 50,
  invalidGrant: 283,
} as const;
