// The analytics API's answers: the metrics object (a platform row's, or a total over many rows) and the
// per-post, per-account, per-workspace and overall reports built from it.
import { z } from "zod";
import { accountAnalyticsSchema } from "../accounts/schemas";
import { PLATFORMS, POST_STATUSES } from "../db/enums";
import { pageQuery, simplePageFields } from "../lib/schemas";

const count = (description: string) => z.int().min(0).meta({ description });

export const metricsSchema = z
  .strictObject({
    comments: count("Comments."),
    likes: count("Likes (reactions)."),
    shares: count("Shares, reposts, retweets."),
    impressions: count("Times the post was shown."),
    quotes: count("Quotes (Twitter, Threads)."),
    saves: count("Saves, bookmarks."),
    engagement_rate: z.number().min(0).meta({
      description:
        "Percent: (likes + comments + shares + quotes + saves) / impressions × 100, two decimals. In a total, the rows' rates weighted by their impressions; without impressions, the mean of the non-zero rates; 0 without data.",
    }),
  })
  .meta({ id: "AnalyticsMetrics", description: "Engagement of a published row, or summed over rows." });

const rowAnalytics = z.union([metricsSchema, z.strictObject({})]).meta({
  description: "The row's metrics once PUBLISHED (as of its last sync); `{}` for any other status.",
});

const postUrl = z
  .string()
  .nullable()
  .meta({ description: "The post on the platform; null until published." });

export const postAnalyticsSchema = z
  .strictObject({
    post_id: z.int(),
    total: metricsSchema,
    accounts: z.array(
      z
        .strictObject({
          account_id: z.int(),
          platform: z.enum(PLATFORMS),
          status: z.enum(POST_STATUSES),
          post_url: postUrl,
          analytics: rowAnalytics,
          account: accountAnalyticsSchema,
        })
        .meta({ id: "PostAccountAnalytics", description: "The post on one of its accounts." }),
    ),
  })
  .meta({ id: "PostAnalytics" });

export const accountPostsAnalyticsSchema = z
  .strictObject({
    account_id: z.int(),
    total: metricsSchema,
    platform_posts: z
      .array(
        z
          .strictObject({
            platform_post_id: z.string().nullable(),
            post_id: z.int(),
            platform: z.enum(PLATFORMS),
            status: z.enum(POST_STATUSES),
            post_url: postUrl,
            analytics: rowAnalytics,
          })
          .meta({ id: "PlatformPostAnalytics" }),
      )
      .meta({
        description:
          "One page (`page`, `per_page`: 100 unless asked otherwise) of the account's platform rows, newest platform post first (by `platform_post_id`, numerically); rows not published yet last.",
      }),
    ...simplePageFields,
  })
  .meta({ id: "AccountPostsAnalytics" });

export const accountReportQuery = z.strictObject(pageQuery(100));

/** One account's totals inside a workspace or overall report. */
export const accountTotalSchema = z
  .strictObject({
    account_id: z.int(),
    workspace_id: z.int(),
    platform: z.enum(PLATFORMS),
    username: z.string(),
    total: metricsSchema,
  })
  .meta({ id: "AccountAnalyticsTotal" });

export const workspaceAnalyticsSchema = z
  .strictObject({
    workspace_id: z.int(),
    total: metricsSchema,
    accounts: z
      .array(accountTotalSchema)
      .meta({ description: "Every account of the workspace, oldest first." }),
  })
  .meta({ id: "WorkspaceAnalytics" });

export const overallAnalyticsSchema = z
  .strictObject({
    total: metricsSchema,
    workspaces: z
      .array(
        z
          .strictObject({ workspace_id: z.int(), name: z.string(), total: metricsSchema })
          .meta({ id: "WorkspaceAnalyticsTotal" }),
      )
      .meta({ description: "Every workspace the key's user can access, oldest first." }),
    accounts: z
      .array(accountTotalSchema)
      .meta({ description: "Every account of those workspaces, oldest first." }),
  })
  .meta({ id: "OverallAnalytics" });

export const syncAnswerSchema = z
  .strictObject({
    post_id: z.int(),
    jobs_dispatched: z.int().min(0).meta({ description: "One per PUBLISHED row with a platform post." }),
    skipped: z.boolean(),
    skip_reason: z
      .enum(["post_owner_subscription_inactive"])
      .nullable()
      .meta({ description: "Why nothing was dispatched; null unless `skipped`." }),
  })
  .meta({ id: "AnalyticsSync" });
