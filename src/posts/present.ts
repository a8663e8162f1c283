// The Post shape, identical in every answer (create, get, update, list items), typed by the documented
// schema so the presenter cannot drift from the API reference.
import type { z } from "zod";
import { isoOrNull, toPostedOn, toZonedIso } from "../lib/time";
import { linkExpiry, signMediaUrl } from "../media/links";
import { presentWorkspace } from "../workspaces/present";
import type { LoadedPost } from "./load";
import type { postSchema } from "./schemas";

export type PresentedPost = z.output<typeof postSchema>;
type Row = PresentedPost["platforms"][number];

export type PresentContext = { env: Pick<Env, "ENCRYPTION_KEY">; origin: string; includeComments: boolean };

/** Signed links kept across requests: `mediaId` → URL, for one signing key, origin and expiry. */
type LinkCache = { expires: number; urls: Map<number, string> };
const linkCaches = new Map<string, LinkCache>();
/** Bounds the cache (a page signs at most 100 posts × 10 items × 10 media). */
const LINKS_MAX = 20_000;

/**
 * The page's media links, each signed once: a link is the same for a whole hour (media/links.ts rounds
 * its expiry), so the links of that hour are kept per isolate and a page read again signs nothing.
 * Signed up front, so the presenting itself is synchronous (no promise per post, item or medium).
 */
async function signedLinks(loaded: LoadedPost[], ctx: PresentContext): Promise<(mediaId: number) => string> {
  const now = Date.now();
  const expires = linkExpiry(now);
  const cacheKey = `${ctx.env.ENCRYPTION_KEY ?? ""}\n${ctx.origin}`;
  let cache = linkCaches.get(cacheKey);
  if (!cache || cache.expires !== expires || cache.urls.size > LINKS_MAX) {
    cache = { expires, urls: new Map() };
    linkCaches.set(cacheKey, cache);
  }
  const { urls } = cache;
  const missing = new Set<number>();
  for (const post of loaded)
    for (const { media } of post.media) if (!urls.has(media.id)) missing.add(media.id);
  if (missing.size > 0) {
    const signed = await Promise.all(
      [...missing].map(async (id) => [id, await signMediaUrl(ctx.env, ctx.origin, id, now)] as const),
    );
    for (const [id, url] of signed) urls.set(id, url);
  }
  return (mediaId) => urls.get(mediaId)!;
}

export async function presentPosts(loaded: LoadedPost[], ctx: PresentContext): Promise<PresentedPost[]> {
  const link = await signedLinks(loaded, ctx);
  // A page's posts share a few workspaces: each is presented once and the object shared.
  const workspaces = new Map<number, ReturnType<typeof presentWorkspace>>();
  const workspaceOf = ({ workspace }: LoadedPost) => {
    let shown = workspaces.get(workspace.id);
    if (!shown) {
      shown = presentWorkspace(workspace);
      workspaces.set(workspace.id, shown);
    }
    return shown;
  };
  return loaded.map((post) => presentOne(post, ctx, link, workspaceOf(post)));
}

function presentOne(
  loaded: LoadedPost,
  ctx: PresentContext,
  link: (id: number) => string,
  workspace: PresentedPost["workspace"],
): PresentedPost {
  const { post } = loaded;
  const zone = workspace.timezone;
  const content = post.content.map((text, index) => ({
    text,
    media: loaded.media
      .filter((m) => m.itemIndex === index)
      .map(({ media }) => ({
        id: media.id,
        name: media.name,
        url: link(media.id),
        type: media.mimeType,
        size: media.size,
      })),
  }));
  const postedOn = [...new Set(loaded.rows.flatMap((row) => row.postedOn))].sort((a, b) => a - b);
  // Rows published the same minute (a post to three accounts) are one publication to the reader.
  const postedOnShown = [...new Set(postedOn.map((ms) => toPostedOn(new Date(ms), zone)))];
  return {
    id: post.id,
    content,
    status: post.status,
    version: post.version,
    posted_on: postedOnShown,
    scheduled_at: isoOrNull(post.scheduledAt, zone),
    repeatable: post.repeatable,
    repeatable_times: post.repeatableTimes,
    repeatable_gap: post.repeatableGap,
    repeatable_gap_unit: post.repeatableGapUnit,
    remaining_posts: post.remainingPosts,
    workspace,
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
