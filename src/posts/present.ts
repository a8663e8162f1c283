// The Post shape, identical in every answer (create, get, update, list items), typed by the documented
// schema so the presenter cannot drift from the API reference.
import type { z } from "zod";
import { isoOrNull, toPostedOn, toZonedIso } from "../lib/time";
import { signMediaUrl } from "../media/links";
import { presentWorkspace } from "../workspaces/present";
import type { LoadedPost } from "./load";
import type { postSchema } from "./schemas";

export type PresentedPost = z.output<typeof postSchema>;
type Row = PresentedPost["platforms"][number];

export type PresentContext = { env: Pick<Env, "ENCRYPTION_KEY">; origin: string; includeComments: boolean };

/** Media links are signed once per media item per answer. */
function linkSigner(ctx: PresentContext) {
  const cache = new Map<number, Promise<string>>();
  return (mediaId: number) => {
    let url = cache.get(mediaId);
    if (!url) {
      url = signMediaUrl(ctx.env, ctx.origin, mediaId);
      cache.set(mediaId, url);
    }
    return url;
  };
}

export async function presentPosts(loaded: LoadedPost[], ctx: PresentContext): Promise<PresentedPost[]> {
  const sign = linkSigner(ctx);
  return Promise.all(loaded.map((post) => presentOne(post, ctx, sign)));
}

async function presentOne(
  loaded: LoadedPost,
  ctx: PresentContext,
  sign: (id: number) => Promise<string>,
): Promise<PresentedPost> {
  const { post, workspace } = loaded;
  const zone = workspace.timezone;
  const content = await Promise.all(
    post.content.map(async (text, index) => ({
      text,
      media: await Promise.all(
        loaded.media
          .filter((m) => m.itemIndex === index)
          .map(async ({ media }) => ({
            id: media.id,
            name: media.name,
            url: await sign(media.id),
            type: media.mimeType,
            size: media.size,
          })),
      ),
    })),
  );
  const postedOn = [...new Set(loaded.rows.flatMap((row) => row.postedOn))].sort((a, b) => a - b);
  // Rows published the same minute (a post to three accounts) are one publication to the reader.
  const postedOnShown = [...new Set(postedOn.map((ms) => toPostedOn(new Date(ms), zone)))];
  return {
    id: post.id,
    content,
    status: post.status,
    posted_on: postedOnShown,
    scheduled_at: isoOrNull(post.scheduledAt, zone),
    repeatable: post.repeatable,
    repeatable_times: post.repeatableTimes,
    repeatable_gap: post.repeatableGap,
    repeatable_gap_unit: post.repeatableGapUnit,
    remaining_posts: post.remainingPosts,
    workspace: presentWorkspace(workspace),
    labels: loaded.labels,
    platforms: loaded.rows.map((row) => ({
      account_id: row.accountId,
      platform: row.platform,
      posted_on: row.postedOn.map((ms) => toPostedOn(new Date(ms), zone)),
      status: row.status,
      // Untyped JSON columns: settings hold what the platform's request schema produced, analytics the
      // metrics object.
      settings: row.settings as Row["settings"],
      // Only published rows carry metrics.
      analytics: row.status === "PUBLISHED" ? (row.analytics as Row["analytics"]) : {},
      platform_post_id: row.platformPostId,
      post_url: row.postUrl,
      error: row.error ?? null,
    })),
    // Written by the request's auto_plug schema.
    auto_plug: (post.autoPlug as PresentedPost["auto_plug"]) ?? null,
    created_at: toZonedIso(post.createdAt, zone),
    updated_at: toZonedIso(post.updatedAt, zone),
    comments: ctx.includeComments
      ? loaded.comments.map((comment) => ({
          id: comment.id,
          content: comment.content,
          author_name: comment.authorName,
          platform: comment.platform,
          created_at: toZonedIso(comment.createdAt, zone),
          contact: comment.contact ?? null,
        }))
      : [],
  };
}
