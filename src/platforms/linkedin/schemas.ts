// The parts of LinkedIn's answers the adapter reads, as zod schemas (unknown fields are dropped), and
// `expect`, which turns an answer of the wrong shape into a classified PlatformError.
import { z } from "zod";
import { expectShape } from "../answers";
import type { FailureKind } from "../types";

const count = z.number().int().nonnegative().catch(0);

/** rest/images?action=initializeUpload */
export const imageUpload = z.object({
  value: z.object({
    uploadUrl: z.url(),
    image: z.string().startsWith("urn:li:image:"),
    /** Epoch ms after which the upload URL takes no bytes (absent: not said). */
    uploadUrlExpiresAt: z.number().int().optional().catch(undefined),
  }),
});

/** rest/videos?action=initializeUpload: one instruction per part, byte ranges inclusive. */
export const videoUpload = z.object({
  value: z.object({
    video: z.string().startsWith("urn:li:video:"),
    uploadToken: z.string().catch(""),
    uploadInstructions: z
      .array(
        z.object({
          uploadUrl: z.url(),
          firstByte: z.number().int().nonnegative(),
          lastByte: z.number().int().nonnegative(),
        }),
      )
      .min(1),
  }),
});

/** rest/videos/{urn}: WAITING_UPLOAD, PROCESSING, AVAILABLE or PROCESSING_FAILED. */
export const videoStatus = z.object({ status: z.string() });
/** rest/images/{urn}: WAITING_UPLOAD, PROCESSING, AVAILABLE or PROCESSING_FAILED (Images API). */
export const imageStatus = z.object({ status: z.string() });

/** rest/posts?q=author: the author's recent posts. */
export const postsPage = z.object({
  elements: z.array(z.object({ id: z.string(), commentary: z.string().catch("") })),
});

/** One comment of socialActions/{urn}/comments. */
export const comment = z.object({
  id: z.string().optional(),
  commentUrn: z.string().optional(),
  $URN: z.string().optional(),
  actor: z.string().catch(""),
  message: z.object({ text: z.string().catch("") }).catch({ text: "" }),
  created: z.object({ time: z.number() }).optional(),
  /** A reply's comment URN. */
  parentComment: z.string().optional(),
  /** How many answer it: read with socialActions/{comment URN}/comments when some do. */
  commentsSummary: z.object({ totalFirstLevelComments: z.number().int().catch(0) }).optional(),
});
export type LinkedInComment = z.infer<typeof comment>;

export const commentsPage = z.object({
  elements: z.array(comment),
  paging: z.object({ total: z.number().int().optional() }).optional(),
});

/** rest/socialMetadata/{urn}: reactions by type and the comment count. */
export const socialMetadata = z.object({
  reactionSummaries: z.record(z.string(), z.object({ count })).catch({}),
  commentSummary: z.object({ count }).catch({ count: 0 }),
});

/** rest/organizationalEntityShareStatistics: lifetime organic counts of the shares asked for. */
export const shareStatistics = z.object({
  elements: z.array(
    z.object({
      totalShareStatistics: z.object({
        impressionCount: count,
        shareCount: count,
        likeCount: count,
        commentCount: count,
      }),
    }),
  ),
});

/** rest/memberCreatorPostAnalytics?q=entity, aggregation TOTAL. */
export const memberAnalytics = z.object({ elements: z.array(z.object({ count })) });

/** rest/organizationAcls?q=roleAssignee: the organizations the member has a role in. */
export const organizationAcls = z.object({
  elements: z.array(
    z.object({
      role: z.string().optional(),
      organization: z.string().optional(),
      organizationalTarget: z.string().optional(),
    }),
  ),
});

/** rest/organizations?ids=List(…): a batch answer keyed by organization id. */
export const organizations = z.object({
  results: z.record(
    z.string(),
    z.object({
      localizedName: z.string().optional(),
      vanityName: z.string().optional(),
      logoV2: z.object({ original: z.string().optional(), cropped: z.string().optional() }).optional(),
    }),
  ),
});

/** rest/images?ids=List(…): a batch answer keyed by image URN. */
export const images = z.object({
  results: z.record(z.string(), z.object({ downloadUrl: z.string().optional() })),
});

/** The answer in the expected shape, else a PlatformError of `kind` (what a retry can do about it). */
export const expect = <T>(schema: z.ZodType<T>, body: unknown, what: string, kind: FailureKind): T =>
  expectShape(schema, body, `LinkedIn ${what}`, kind === "unknown_outcome");
