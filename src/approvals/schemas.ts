// The approvals API's bodies and answers (ARCHITECTURE "Approvals").
import { z } from "zod";
import { REVIEW_ACTIONS, REVIEWER_TYPES } from "../db/enums";
import { zonedTime } from "../lib/schemas";

const version = z
  .int({ error: "The :attribute field must be an integer." })
  .min(1)
  .meta({ description: "The post's `version` the reviewer saw; another one is a 409.", example: 1 });

const note = z.string().trim().min(1).max(1000);

export const approveBody = z
  .strictObject({ version, note: note.optional().meta({ description: "Kept in the review history." }) })
  .meta({ example: { version: 1 } });

export const rejectBody = z
  .strictObject({
    version,
    reason: note.meta({ description: "Why: kept in the review history as the entry's `note`." }),
  })
  .meta({ example: { version: 1, reason: "The link is wrong." } });

export const reviewSchema = z
  .strictObject({
    action: z.enum(REVIEW_ACTIONS).meta({
      description:
        "`submitted` (the post started waiting for approval), `edited` (changed while waiting or after an approval: it waits again), `approved`, `rejected`.",
    }),
    version: z.int().meta({ description: "The post's version the entry is about." }),
    note: z.string().nullable().meta({ description: "The approver's note or the rejection's reason." }),
    by: z.strictObject({
      type: z.enum(REVIEWER_TYPES).meta({ description: "An API key, a review link, or a console user." }),
      name: z.string().meta({ description: "The key's name, the link's label, or the user's name." }),
    }),
    at: zonedTime(),
  })
  .meta({ id: "PostReview" });

export const reviewsSchema = z
  .strictObject({ data: z.array(reviewSchema) })
  .meta({ description: "The post's review history, oldest first." });

/** Review links last 7 days unless asked otherwise, 30 at most. */
export const REVIEW_LINK_DEFAULT_SECONDS = 7 * 24 * 3600;
export const REVIEW_LINK_MAX_SECONDS = 30 * 24 * 3600;

export const reviewLinkBody = z
  .strictObject({
    expires_in: z
      .int()
      .min(60)
      .max(REVIEW_LINK_MAX_SECONDS)
      .optional()
      .meta({ description: "Seconds the link works; 7 days by default, 30 days at most." }),
    label: z
      .string()
      .trim()
      .min(1)
      .max(80)
      .optional()
      .meta({ description: "Who the link is for; the review history names the decision by it." }),
  })
  .meta({ example: { expires_in: 604800, label: "Client: Acme" } });

export const reviewLinkSchema = z
  .strictObject({
    url: z.string().meta({
      description:
        "The review page: the post as each platform will show it, with Approve and Reject. Works for this version of the post only, until it expires, for one decision.",
    }),
    expires_in: z.int(),
  })
  .meta({ id: "ReviewLink" });
