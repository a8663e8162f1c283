// The comment inbox's query and answer: the spec's Comment plus where it sits (post, account, parent)
// and what the account may do with it.
import { z } from "zod";
import { PLATFORMS } from "../db/enums";
import { isoDateTime, pageQuery, queryFlag, simplePageFields, textId, zonedTime } from "../lib/schemas";
import { LONGEST_TEXT_LIMIT } from "../platforms/catalog";

/** Comments a page holds unless `per_page` says otherwise. */
export const DEFAULT_PER_PAGE = 20;

/** What an account may do with a comment (`hide` stands for hiding and showing again). */
export const COMMENT_ACTIONS = ["reply", "hide", "delete"] as const;

/** The cursor: the base64url of the last id of the page before, so the next page starts below it. */
const cursorQuery = () =>
  z
    .string({ error: "The :attribute field must be a cursor this list gave." })
    .regex(/^[A-Za-z0-9_-]{1,24}$/, { error: "The :attribute field must be a cursor this list gave." })
    .transform((value, ctx) => {
      const id = decodeCursor(value);
      if (id === null) {
        ctx.addIssue({ code: "custom", message: "The :attribute field must be a cursor this list gave." });
        return z.NEVER;
      }
      return id;
    })
    .meta({
      type: "string",
      description:
        "Where the page starts: the `next_cursor` of the page before. Stable: comments that arrive meanwhile never shift or repeat items across pages, and every page costs what page 1 does.",
    });

export const encodeCursor = (id: number) =>
  btoa(String(id)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

/** The id a cursor names, or null when it is not one this list gave. */
export function decodeCursor(cursor: string): number | null {
  try {
    const text = atob(cursor.replace(/-/g, "+").replace(/_/g, "/"));
    if (!/^[1-9][0-9]{0,15}$/.test(text)) return null;
    const id = Number(text);
    return Number.isSafeInteger(id) ? id : null;
  } catch {
    return null;
  }
}

/** Strict: a parameter the list does not know is a 422, never ignored. */
export const listCommentsQuery = z.strictObject({
  ...pageQuery(DEFAULT_PER_PAGE),
  cursor: cursorQuery().optional(),
  workspace_id: textId()
    .optional()
    .meta({ description: "Only this workspace's comments (another tenant's workspace matches nothing)." }),
  account_id: textId().optional().meta({ description: "Only comments on this account's posts." }),
  post_id: textId().optional().meta({ description: "Only comments on this post." }),
  platform: z
    .enum(PLATFORMS, { error: "The selected :attribute is invalid." })
    .optional()
    .meta({ description: "Only comments on this platform." }),
  since: isoDateTime()
    .optional()
    .meta({ description: "Only comments written at or after this time (ISO 8601 with an offset)." }),
  hidden: queryFlag().optional().meta({ description: "Only hidden (true) or visible (false) comments." }),
  replied: queryFlag().optional().meta({
    description: "Only comments the account replied to through the service (true), or not (false).",
  }),
});
export type ListCommentsQuery = z.output<typeof listCommentsQuery>;

export const commentSchema = z
  .strictObject({
    id: z.int(),
    content: z.string(),
    author_name: z.string(),
    platform: z.enum(PLATFORMS),
    created_at: zonedTime().meta({ description: "When it was written, in the workspace's zone." }),
    contact: z.record(z.string(), z.unknown()).nullable().meta({
      description: "The author's contact when the platform gives it: `name`, `username`, `profile_url`.",
    }),
    post_id: z.int(),
    account_id: z.int().meta({ description: "The connected account whose post it is on." }),
    platform_comment_id: z.string().nullable().meta({ description: "The platform's id of the comment." }),
    parent_id: z.int().nullable().meta({
      description: "The comment this one answers, once that one is stored; null for a top-level one.",
    }),
    hidden: z.boolean().meta({ description: "Hidden from the public, where the platform reports it." }),
    url: z
      .string()
      .nullable()
      .meta({ description: "The comment's own page on the platform, where it has one." }),
    is_own: z.boolean().meta({ description: "Written by the connected account itself." }),
    actions: z.array(z.enum(COMMENT_ACTIONS)).meta({
      description:
        "What the account may do with this comment here: the calls its platform has (`hide` means hide and unhide) less what the platform refuses on this comment (X deletes only the account's own posts and hides only others' replies). Any other action is a 422 saying why.",
    }),
  })
  .meta({ id: "Comment" });
export type PresentedComment = z.infer<typeof commentSchema>;

export const commentPageSchema = z
  .strictObject({
    data: z.array(commentSchema),
    next_cursor: z
      .string()
      .nullable()
      .meta({ description: "Pass as `cursor` for the next page; null on the last one." }),
    ...simplePageFields,
  })
  .meta({ id: "CommentPage" });

/** The reply's text: its platform's text limit is checked once the comment (and so its platform) is read. */
export const replyBody = z
  .strictObject({
    text: z
      .string({ error: "The text field is required." })
      .min(1, { error: "The text field is required." })
      .max(LONGEST_TEXT_LIMIT, {
        error: `The text field must not be greater than ${LONGEST_TEXT_LIMIT} characters.`,
      })
      .meta({ description: "The reply, within the comment's platform's text limit (X: 280)." }),
  })
  .meta({ id: "ReplyToCommentRequest", example: { text: "Thank you!" } });
export type ReplyBody = z.infer<typeof replyBody>;
