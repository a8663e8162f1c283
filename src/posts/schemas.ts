// Request schemas of the posts API. Cross-field rules that need the stored post (update) or the clock
// live in rules.ts, so create and update share them.
import { z } from "zod";
import { AUTO_PLUG_METRICS, GAP_UNITS } from "../db/enums";
import { bodyId, isoDateTime, pageQuery, queryFlag } from "../lib/schemas";
import { settingsInput } from "./settings";

const uniqueIds = (max: number) =>
  z
    .array(bodyId())
    .max(max)
    .refine((ids) => new Set(ids).size === ids.length, { message: "The ids must be distinct." });

const contentItem = z
  .object({
    text: z.string().max(63_206).default(""),
    media: z.array(bodyId()).max(20).default([]),
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

export const createPostBody = z.object({ workspace_id: bodyId(), ...postFields });
export const updatePostBody = z.object({
  ...postFields,
  accounts: postFields.accounts.optional(),
  content: postFields.content.optional(),
});

export type PostInput = z.output<typeof updatePostBody>;

export const listPostsQuery = z.object({ ...pageQuery(100), include_comments: queryFlag().default(false) });
export const getPostQuery = z.object({ include_comments: queryFlag().default(false) });
