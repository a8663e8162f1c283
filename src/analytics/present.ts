// The analytics answers, from the rows and totals the queries return, typed by the documented schemas.
import type { z } from "zod";
import { presentAccountAnalytics } from "../accounts/present";
import type { PostStatus } from "../db/enums";
import type { Account } from "../db/schema";
import { COUNT_METRICS, type Totals } from "./queries";
import type {
  accountPostsAnalyticsSchema,
  accountTotalSchema,
  metricsSchema,
  overallAnalyticsSchema,
  postAnalyticsSchema,
  workspaceAnalyticsSchema,
} from "./schemas";

type Metrics = z.output<typeof metricsSchema>;
type RowAnalytics = Metrics | Record<string, never>;

export const ZERO_TOTALS: Totals = {
  comments: 0,
  likes: 0,
  shares: 0,
  impressions: 0,
  quotes: 0,
  saves: 0,
  engagement_rate: 0,
};

const number = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : 0);

/**
 * A row's metrics: the full object once PUBLISHED (zeros until its first sync), `{}` otherwise, since
 * only published rows carry metrics.
 */
export function presentRowAnalytics(
  status: PostStatus,
  stored: Record<string, unknown> | null,
): RowAnalytics {
  if (status !== "PUBLISHED") return {};
  const metrics = { ...ZERO_TOTALS };
  for (const key of COUNT_METRICS) metrics[key] = Math.round(number(stored?.[key]));
  metrics.engagement_rate = number(stored?.engagement_rate);
  return metrics;
}

type PostRow = {
  accountId: number;
  platform: Account["platform"];
  status: PostStatus;
  postUrl: string | null;
  analytics: Record<string, unknown>;
};

export function presentPostAnalytics(
  postId: number,
  total: Totals | undefined,
  rows: PostRow[],
  accounts: Account[],
): z.output<typeof postAnalyticsSchema> {
  const byId = new Map(accounts.map((a) => [a.id, a]));
  return {
    post_id: postId,
    total: total ?? ZERO_TOTALS,
    accounts: rows.map((row) => ({
      account_id: row.accountId,
      platform: row.platform,
      status: row.status,
      post_url: row.postUrl,
      analytics: presentRowAnalytics(row.status, row.analytics),
      account: presentAccountAnalytics(byId.get(row.accountId)!),
    })),
  };
}

type AccountRow = Omit<PostRow, "accountId"> & { platformPostId: string | null; postId: number };

/** The report without its page fields, which the router adds (src/http/pagination.ts simplePage). */
export function presentAccountPosts(
  accountId: number,
  total: Totals | undefined,
  rows: AccountRow[],
): Pick<z.output<typeof accountPostsAnalyticsSchema>, "account_id" | "total" | "platform_posts"> {
  return {
    account_id: accountId,
    total: total ?? ZERO_TOTALS,
    platform_posts: rows.map((row) => ({
      platform_post_id: row.platformPostId,
      post_id: row.postId,
      platform: row.platform,
      status: row.status,
      post_url: row.postUrl,
      analytics: presentRowAnalytics(row.status, row.analytics),
    })),
  };
}

type AccountTotalRow = {
  accountId: number;
  workspaceId: number;
  platform: Account["platform"];
  username: string;
  total: Totals;
};

const presentAccountTotal = (row: AccountTotalRow): z.output<typeof accountTotalSchema> => ({
  account_id: row.accountId,
  workspace_id: row.workspaceId,
  platform: row.platform,
  username: row.username,
  total: row.total,
});

export const presentWorkspaceAnalytics = (
  workspaceId: number,
  total: Totals | undefined,
  accounts: AccountTotalRow[],
): z.output<typeof workspaceAnalyticsSchema> => ({
  workspace_id: workspaceId,
  total: total ?? ZERO_TOTALS,
  accounts: accounts.map(presentAccountTotal),
});

export const presentOverallAnalytics = (
  total: Totals | undefined,
  workspaces: Array<{ workspaceId: number; name: string; total: Totals }>,
  accounts: AccountTotalRow[],
): z.output<typeof overallAnalyticsSchema> => ({
  total: total ?? ZERO_TOTALS,
  workspaces: workspaces.map((w) => ({ workspace_id: w.workspaceId, name: w.name, total: w.total })),
  accounts: accounts.map(presentAccountTotal),
});
