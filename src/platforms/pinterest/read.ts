// The reads of a published Pin: its analytics as PostMetrics. Pinterest v5 has no endpoint that lists a
// Pin's comments or writes one, so the adapter declares neither `comments` nor `reply`.
// developers.pinterest.com › API reference v5 › Get Pin analytics.
import type { AccountAuth, PostMetrics } from "../types";
import { type PinterestApi, tokenOf, withEngagement } from "./api";
import { pinAnalytics } from "./schemas";

/** Pinterest reports at most 90 days back from today; the window ends today (UTC). */
export const ANALYTICS_DAYS = 89;
const DAY_MS = 86_400_000;

export const METRIC_TYPES = [
  "IMPRESSION",
  "SAVE",
  "PIN_CLICK",
  "OUTBOUND_CLICK",
  "TOTAL_COMMENTS",
  "TOTAL_REACTIONS",
];

const day = (at: number) => new Date(at).toISOString().slice(0, 10);

/**
 * Impressions and saves over the last 90 days (Pinterest keeps no older daily data); comments and
 * reactions (as likes) over the Pin's lifetime. Shares and quotes do not exist on Pinterest.
 */
export async function pinInsights(
  api: PinterestApi,
  account: AccountAuth,
  pinId: string,
): Promise<PostMetrics | null> {
  // The API Sandbox has no Pin analytics: nothing to read, the row keeps what it stored.
  if (api.onSandbox) return null;
  const now = api.context.now();
  const answer = await api.get(
    "Pin analytics",
    `pins/${encodeURIComponent(pinId)}/analytics`,
    {
      start_date: day(now - ANALYTICS_DAYS * DAY_MS),
      end_date: day(now),
      metric_types: METRIC_TYPES.join(","),
      app_types: "ALL",
      split_field: "NO_SPLIT",
    },
    tokenOf(account),
    pinAnalytics,
  );
  // Not split, the answer has one group (`all`).
  const group = answer.all ?? Object.values(answer)[0];
  const metric = (name: string) =>
    Math.max(0, Math.round(group?.lifetime_metrics?.[name] ?? group?.summary_metrics?.[name] ?? 0));
  return withEngagement({
    impressions: metric("IMPRESSION"),
    saves: metric("SAVE"),
    comments: metric("TOTAL_COMMENTS"),
    likes: metric("TOTAL_REACTIONS"),
    shares: 0,
    quotes: 0,
  });
}
