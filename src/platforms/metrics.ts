// The one engagement-rate formula every platform's insights use: every interaction per impression, in
// percent, two decimals, 0 when the post has no impressions.
import type { PostMetrics } from "./types";

export type MetricCounts = Omit<PostMetrics, "engagement_rate">;

/** (likes + comments + shares + quotes + saves) / impressions × 100, two decimals; 0 without impressions. */
export function engagementRate(counts: MetricCounts): number {
  const engaged = counts.likes + counts.comments + counts.shares + counts.quotes + counts.saves;
  return counts.impressions > 0 ? Math.round((engaged / counts.impressions) * 10_000) / 100 : 0;
}

/** PostMetrics from the platform's counts, with their engagement rate. */
export const withEngagement = (counts: MetricCounts): PostMetrics => ({
  ...counts,
  engagement_rate: engagementRate(counts),
});
