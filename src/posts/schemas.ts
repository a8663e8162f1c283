// Request schemas of the posts API. Cross-field rules that need the stored post (update) or the clock
// live in rules.ts, so create and update share them.
import { z } from "zod";
import { pageQuery } from "../http/pagination";
import { isoDateTime, positiveId } from "../http/validate";
import { settingsInput } from "./settings";

export const GAP_UNITS = ["minutes", "hours", "days", "weeks", "months"] as const;
export const AUTO_PLUG_METRICS = ["likes", "comments", "shares", "impressions"] as const;

const uniqueIds = (max: number) =>
  z
    .array(positiveId())
    .max(max)
    .refine((ids) => new Set(ids).size === ids.length, { message: "The ids must be distinct." });

const contentItem = z
  .object({
    text: z.string().max(63_206).default(""),
    media: z.array(positiveId()).max(20).default([]),
  })
  .superRefine((item, ctx) => {
    if (item.text.trim() === "" && item.media.length === 0)
      ctx.addIssue({ code: "custom", path: ["text"], message: "Each content item needs text or media." });
  });

/** An automatic follow-up reply, posted once when the published post passes an engagement threshold. */
export const autoPlugInput = z
  .object({
    text: z.string().trim().min(1).max(2000),
    metric: z.enum(AUTO_PLUG_METRICS).default("likes"),
    threshold: z.int().min(1).max(1_000_000_000),
  })
  .strict();

const postFields = {
  accounts: uniqueIds(50).min(1),
  content: z.array(contentItem).min(1).max(25),
  scheduled_at: isoDateTime().nullable().optional(),
  publish_now: z.boolean().optional(),
  labels: uniqueIds(50).optional(),
  settings: settingsInput.optional(),
  repeatable: z.boolean().optional(),
  repeatable_times: z.int().min(1).max(100).nullable().optional(),
  repeatable_gap: z.int().min(1).max(1000).nullable().optional(),
  repeatable_gap_unit: z.enum(GAP_UNITS).nullable().optional(),
  auto_plug: autoPlugInput.nullable().optional(),
};

export const createPostBody = z.object({ workspace_id: positiveId(), ...postFields });
export const updatePostBody = z.object({
  ...postFields,
  accounts: postFields.accounts.optional(),
  content: postFields.content.optional(),
});

export type PostInput = z.output<typeof updatePostBody>;

const booleanFlag = z
  .enum(["true", "false", "1", "0"], { message: "The include comments field must be true or false." })
  .transform((v) => v === "true" || v === "1");

export const listPostsQuery = z.object({ ...pageQuery(100), include_comments: booleanFlag.default(false) });
export const getPostQuery = z.object({ include_comments: booleanFlag.default(false) });
