// The posts API's schemas: the requests (cross-field rules that need the stored post or the clock live in
// rules.ts, so create and update share them) and the Post every answer carries.
import { z } from "zod";
import { AUTO_PLUG_METRICS, GAP_UNITS, PLATFORMS, type Platform, POST_STATUSES } from "../db/enums";
import {
  beforeIdQuery,
  bodyId,
  isoDateTime,
  pageQuery,
  paginated,
  queryFlag,
  textId,
  zonedTime,
} from "../lib/schemas";
import { LONGEST_TEXT_LIMIT } from "../platforms/catalog";
import { SETTINGS_SCHEMAS, settingsInput } from "../platforms/settings";
import { workspaceSchema } from "../workspaces/schemas";

const uniqueIds = (max: number) =>
  z
    .array(bodyId())
    .max(max)
    .refine((ids) => new Set(ids).size === ids.length, { message: "The ids must be distinct." });

const contentItem = z
  .strictObject({
    text: z
      .string()
      // A ceiling in UTF-16 units (an emoji counts two); the per-platform limits count characters.
      .max(LONGEST_TEXT_LIMIT * 2)
      // A lone surrogate would not survive being stored and sent as UTF-8.
      .refine((text) => text.isWellFormed(), { error: "The :attribute field must be valid Unicode text." })
      .default("")
      .meta({ description: "At most each target platform's own maximum (see the guide's table)." }),
    media: z
      .array(bodyId())
      .max(20)
      .default([])
      .meta({ description: "Ids of media library items of the post's workspace, in order." }),
  })
  .superRefine((item, ctx) => {
    if (item.text.trim() === "" && item.media.length === 0)
      ctx.addIssue({ code: "custom", path: ["text"], message: "Each content item needs text or media." });
  })
  .meta({ description: "One item of the post (a thread has several): text, media, or both." });

/** An automatic follow-up reply, posted once when the published post passes an engagement threshold. */
export const autoPlugInput = z
  .object({
    text: z.string().trim().min(1).max(2000),
    metric: z.enum(AUTO_PLUG_METRICS).default("likes"),
    threshold: z.int().min(1).max(1_000_000_000),
  })
  .strict()
  .meta({
    description:
      "A follow-up reply posted once, when the published post's `metric` reaches `threshold`. `null` removes it.",
  });

const postFields = {
  accounts: uniqueIds(50).min(1).meta({
    description: "Accounts of the workspace to publish to; each gets a platform row, in this order.",
  }),
  content: z.array(contentItem).min(1).max(25),
  scheduled_at: isoDateTime()
    .nullable()
    .optional()
    .meta({ description: "When to publish (in the future, with an offset). `null` makes the post a draft." }),
  publish_now: z
    .boolean()
    .optional()
    .meta({ description: "Publish right away (status PUBLISHING). Not together with `scheduled_at`." }),
  queue: z.boolean().optional().meta({
    description:
      "`true`: schedule the post at the next free slot of its accounts' posting queue (the earliest slot of every one of its accounts' queues that none of their SCHEDULED posts holds, within 90 days). Not together with `scheduled_at` or `publish_now`; `false` or absent changes nothing.",
  }),
  labels: uniqueIds(50)
    .optional()
    .meta({ description: "Label ids of the post's workspace; replaces the post's labels." }),
  settings: settingsInput.optional().meta({
    description:
      "Per-platform settings keyed by platform (`twitter`, `tiktok`, …), each applied to that platform's rows. Omitted keys take their defaults.",
  }),
  repeatable: z
    .boolean()
    .optional()
    .meta({ description: "Publish again `repeatable_times` times, `repeatable_gap` units apart." }),
  repeatable_times: z
    .int()
    .min(1)
    .max(100)
    .nullable()
    .optional()
    .meta({ description: "Required when `repeatable` is true, refused otherwise." }),
  repeatable_gap: z
    .int()
    .min(1)
    .max(1000)
    .nullable()
    .optional()
    .meta({ description: "Required when `repeatable` is true, refused otherwise." }),
  repeatable_gap_unit: z
    .enum(GAP_UNITS)
    .nullable()
    .optional()
    .meta({ description: "Required when `repeatable` is true, refused otherwise." }),
  auto_plug: autoPlugInput.nullable().optional(),
};

export const createPostBody = z.strictObject({ workspace_id: bodyId(), ...postFields }).meta({
  id: "CreatePostRequest",
  description: "A new post; `POST /api/v1/posts/validate` takes the same body.",
  // Works as is on the demo data of `npm run dev` (workspace 1, accounts 1 to 3): a draft.
  example: {
    workspace_id: 1,
    accounts: [1, 2, 3],
    content: [{ text: "Hello from the API reference", media: [] }],
  },
});
export const updatePostBody = z
  .strictObject({
    ...postFields,
    accounts: postFields.accounts.optional(),
    content: postFields.content.optional(),
  })
  .meta({
    id: "UpdatePostRequest",
    example: { content: [{ text: "Edited from the API reference", media: [] }] },
  });

export type PostInput = z.output<typeof updatePostBody>;
export type CreatePostInput = z.output<typeof createPostBody>;

const includeComments = queryFlag()
  .default(false)
  .meta({ description: "Include each post's comments (otherwise `comments` is empty)." });

/**
 * The list's query: its page, its cursor and its filters. Strict: a parameter the list does not know is
 * a 422, never ignored, so a misspelt filter (`workspace=`) cannot silently answer every post.
 */
export const listPostsQuery = z
  .strictObject({
    ...pageQuery(100),
    include_comments: includeComments,
    before_id: beforeIdQuery(),
    status: z
      .enum(POST_STATUSES, { error: "The selected :attribute is invalid." })
      .optional()
      .meta({ description: "Only posts with this status." }),
    workspace_id: textId()
      .optional()
      .meta({ description: "Only this workspace's posts (another tenant's workspace matches nothing)." }),
    account_id: textId().optional().meta({ description: "Only posts with a platform row on this account." }),
    scheduled_from: isoDateTime().optional().meta({
      description:
        "Only posts scheduled at or after this time (ISO 8601 with an offset); drafts never match.",
    }),
    scheduled_to: isoDateTime().optional().meta({
      description:
        "Only posts scheduled at or before this time (ISO 8601 with an offset); drafts never match.",
    }),
  })
  .refine((q) => !q.scheduled_from || !q.scheduled_to || q.scheduled_from <= q.scheduled_to, {
    path: ["scheduled_to"],
    error: "The scheduled to field must be a date after or equal to scheduled from.",
  });
export type ListPostsQuery = z.output<typeof listPostsQuery>;
export const getPostQuery = z.strictObject({ include_comments: includeComments });

// Answers.

const postedOn = z
  .string()
  .meta({ description: "When it was published, in the workspace's zone.", example: "2026-11-21 09:15 AM" });

const postMediaSchema = z
  .strictObject({
    id: z.int(),
    name: z.string(),
    url: z.string().meta({ description: "A signed link, valid for at least 24 hours." }),
    type: z.string().meta({ description: "MIME type.", example: "image/jpeg" }),
    size: z.int().meta({ description: "Bytes." }),
  })
  .meta({ id: "PostMedia" });

const metricsSchema = z
  .strictObject({
    comments: z.int(),
    likes: z.int(),
    shares: z.int(),
    impressions: z.int(),
    quotes: z.int(),
    saves: z.int(),
    engagement_rate: z.number(),
  })
  .meta({ id: "PostMetrics" });

// One object rather than "metrics or `{}`": generators type each metric (`number | undefined`) instead of
// giving up on the union. On the wire it is still `{}` until the row is published, then every metric.
const rowAnalyticsSchema = metricsSchema.partial().meta({
  id: "PostPlatformAnalytics",
  description:
    "The row's engagement: `{}` until the row is PUBLISHED and synced, then every metric of `PostMetrics` (all seven keys at once).",
});

const rowErrorSchema = z
  .strictObject({
    code: z.string().meta({
      description:
        "A short machine code: the platform's (`content_rejected`, `server_error`, …), or `retries_exhausted` when every retry failed.",
    }),
    message: z.string(),
  })
  .meta({ id: "PostPlatformError" });

const rowFields = {
  account_id: z.int(),
  posted_on: z.array(postedOn),
  status: z.enum(POST_STATUSES),
  analytics: rowAnalyticsSchema,
  platform_post_id: z.string().nullable().meta({
    description:
      "The platform's id of the published post; null until published. On TikTok, TikTok's `publish_id` until moderation gives the post its public id.",
  }),
  post_url: z.string().nullable().meta({
    description:
      "Where the published post is on the platform; null until published, and on TikTok until moderation makes the post public (never, for a post only its creator sees).",
  }),
  error: z.union([rowErrorSchema, z.null()]).meta({
    description:
      "The row's last failure as the platform reported it (`code`, `message`); null when none. It stays while a retry is under way and clears once the row is published.",
  }),
};

const capitalized = (platform: Platform) => `${platform[0]!.toUpperCase()}${platform.slice(1)}`;

/** The row of one platform: `settings` is that platform's complete settings object. */
const rowOf = <P extends Platform>(platform: P) =>
  z
    .strictObject({
      account_id: rowFields.account_id,
      platform: z.literal(platform),
      posted_on: rowFields.posted_on,
      status: rowFields.status,
      // The complete settings of the row's platform: what `settings` gave, every other key at its default.
      settings: SETTINGS_SCHEMAS[platform] as (typeof SETTINGS_SCHEMAS)[P],
      analytics: rowFields.analytics,
      platform_post_id: rowFields.platform_post_id,
      post_url: rowFields.post_url,
      error: rowFields.error,
    })
    .meta({ id: `PostPlatform${capitalized(platform)}`, description: `The post on a ${platform} account.` });

// Discriminated by `platform`, so generators type `settings` as the row's own platform's settings.
const platformRowSchema = z
  .discriminatedUnion(
    "platform",
    PLATFORMS.map((platform) => rowOf(platform)) as unknown as [
      ReturnType<typeof rowOf<Platform>>,
      ...ReturnType<typeof rowOf<Platform>>[],
    ],
  )
  .meta({ id: "PostPlatform", description: "The post on one of its accounts, by its `platform`." });

const autoPlugSchema = z
  .strictObject({ text: z.string(), metric: z.enum(AUTO_PLUG_METRICS), threshold: z.int() })
  .meta({ id: "AutoPlug" });

const commentSchema = z
  .strictObject({
    id: z.int(),
    content: z.string(),
    author_name: z.string(),
    platform: z.enum(PLATFORMS),
    created_at: zonedTime(),
    contact: z
      .record(z.string(), z.unknown())
      .nullable()
      .meta({ description: "The author's CRM contact when known: `name`, `username`, `profile_url`, …" }),
  })
  .meta({ id: "PostComment" });

export const postSchema = z
  .strictObject({
    id: z.int(),
    content: z.array(z.strictObject({ text: z.string(), media: z.array(postMediaSchema) })),
    status: z.enum(POST_STATUSES).meta({
      description:
        "DRAFT (no schedule), PENDING_APPROVAL (in a workspace whose `approval` is `required`: waits for a decision, never published before), SCHEDULED (waits for `scheduled_at`), PUBLISHING (queued or being published), PUBLISHED, FAILED.",
    }),
    version: z.int().min(1).meta({
      description:
        "Starts at 1 and grows by one with every change of the content, targets, time or settings; approving or rejecting names the version the reviewer saw.",
    }),
    posted_on: z.array(postedOn).meta({ description: "Every time any row was published, oldest first." }),
    scheduled_at: zonedTime().nullable(),
    repeatable: z.boolean(),
    repeatable_times: z.int().nullable(),
    repeatable_gap: z.int().nullable(),
    repeatable_gap_unit: z.enum(GAP_UNITS).nullable(),
    remaining_posts: z.int().nullable().meta({ description: "Repetitions left; null unless repeatable." }),
    workspace: workspaceSchema,
    labels: z.array(z.strictObject({ id: z.int(), name: z.string(), color: z.string() })),
    platforms: z.array(platformRowSchema),
    // A union rather than .nullable(): the generator would otherwise make the AutoPlug component itself nullable.
    auto_plug: z.union([autoPlugSchema, z.null()]),
    created_at: zonedTime(),
    updated_at: zonedTime(),
    comments: z.array(commentSchema).meta({ description: "Empty unless `include_comments` was asked." }),
  })
  .meta({
    id: "Post",
    description: "A post, its platform rows and its media; times in the workspace's zone.",
  });

export const postPageSchema = paginated(postSchema).meta({ id: "PostPage" });

// The dry run's answer (POST /api/v1/posts/validate).

const problemSchema = z
  .strictObject({
    field: z.string().meta({
      description: "The request's field path, as a 422 names it: `content.0.media.2`, `accounts.1`, …",
      example: "content.0.media.2",
    }),
    message: z.string().meta({
      example: "The content.0.media.2 field must not be greater than 5 MB for an image on twitter.",
    }),
  })
  .meta({ id: "PostProblem", description: "One reason a post would not publish on an account." });

const accountReportSchema = z
  .strictObject({
    account_id: z.int(),
    platform: z
      .enum(PLATFORMS)
      .nullable()
      .meta({ description: "null when the id is not an account of the workspace (`accounts.N` problem)." }),
    username: z
      .string()
      .nullable()
      .meta({ description: "null when the id is not an account of the workspace." }),
    will_publish: z.boolean().meta({
      description:
        "Whether the post would publish on this account: create accepts the body (`errors` is empty) and the account has no problem.",
    }),
    problems: z.array(problemSchema).meta({
      description:
        "Everything that would keep this account from publishing: create's errors that concern it (its `accounts.N`, text over its platform's limit) and what its platform or its state refuses.",
    }),
  })
  .meta({
    id: "PostValidationAccount",
    description: "The post on one target account, in the request's order.",
  });

export const postValidationSchema = z
  .strictObject({
    valid: z
      .boolean()
      .meta({ description: "Whether create accepts the body and every account would publish." }),
    accounts: z.array(accountReportSchema).meta({ description: "One entry per id of `accounts`, in order." }),
    scheduled_at: z.string().nullable().meta({
      description:
        "When create would schedule the post, ISO 8601 with the workspace zone's offset: `scheduled_at` as given, or with `queue: true` the slot free now (a create claims the earliest slot still free when it runs). Null for a draft, `publish_now`, or a body create would refuse.",
    }),
    errors: z.record(z.string(), z.array(z.string())).meta({
      description:
        "What `POST /api/v1/posts` would answer in its 422's `errors` for this body now, by field path; empty when it would create the post.",
    }),
  })
  .meta({ id: "PostValidation", description: "The dry run of a post create: nothing was written." });

export type PostValidation = z.output<typeof postValidationSchema>;
export type PostProblem = z.output<typeof problemSchema>;
