// The parts of Pinterest API v5 answers the adapter reads, as zod schemas (unknown keys are dropped).
// developers.pinterest.com › API reference v5 › Pin, Media, Get Pin analytics.
import { z } from "zod";

const digits = z.string().regex(/^\d+$/);

/** A Pin as pins/create and pins/list answer it. */
export const pin = z.object({
  id: digits,
  description: z.string().nullish(),
  board_id: z.string().nullish(),
  created_at: z.string().nullish(),
});

export const pinList = z.object({ items: z.array(pin).default([]), bookmark: z.string().nullish() });

/** media/create: where and how to upload the video's bytes. */
export const mediaUpload = z.object({
  media_id: digits,
  upload_url: z.url({ protocol: /^https$/ }),
  upload_parameters: z.record(z.string(), z.string()).default({}),
});

/** media/get: the upload's processing status. */
export const mediaStatus = z.object({
  media_id: digits,
  status: z.enum(["registered", "processing", "succeeded", "failed"]).optional(),
});

const metricValues = z.record(z.string(), z.number()).optional();

/** pins/analytics: per app type (`all` unless split), the period's summary and lifetime metrics. */
export const pinAnalytics = z.record(
  z.string(),
  z.object({ summary_metrics: metricValues, lifetime_metrics: metricValues }),
);
