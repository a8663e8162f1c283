// What a platform's push names: the account (the platform's id of it) and the posts with new comments.
// Nothing else of the payload is kept: the comment's text, author and ids are read again from the
// platform by the sync (src/analytics/sync.ts), never taken from the push.
//
// - Facebook (object `page`): `entry[].id` is the Page, `changes[]` with `field: "feed"` and
//   `value.item: "comment"` name the post as `value.post_id` ("{page-id}_{post-id}").
// - Instagram (object `instagram`): `entry[].id` is the professional account, `changes[]` with `field`
//   `comments` or `live_comments` name the media as `value.media.id` (absent for an album's comments:
//   Meta's documented limitation; the schedule reads those).
// - Threads (field `replies`): `values.value.root_post` names the post (`id`) and its owner (`owner_id`).
import { z } from "zod";

export const PUSH_PLATFORMS = ["facebook", "instagram", "threads"] as const;
export type PushPlatform = (typeof PUSH_PLATFORMS)[number];

/** One account's posts named by a push (platform ids). */
export type Pointer = { account: string; posts: string[] };

const id = z.union([z.string().min(1).max(100), z.number().int().nonnegative()]).transform(String);

const metaPush = z.object({
  object: z.string(),
  entry: z
    .array(
      z.object({
        id,
        changes: z.array(z.object({ field: z.string(), value: z.unknown() })).default([]),
      }),
    )
    .default([]),
});
const feedComment = z.object({ item: z.literal("comment"), post_id: id });
const mediaComment = z.object({ media: z.object({ id }) });
const threadsReply = z.object({
  values: z.object({
    field: z.literal("replies"),
    value: z.object({ root_post: z.object({ id, owner_id: id }) }),
  }),
});

/** The posts a Facebook feed change names: the Page's "{page}_{post}" id, and the post's own part. */
const feedPostIds = (postId: string) => {
  const own = postId.includes("_") ? postId.slice(postId.indexOf("_") + 1) : null;
  return own ? [postId, own] : [postId];
};

function metaPointers(
  body: unknown,
  object: string,
  fields: readonly string[],
  posts: (value: unknown) => string[],
) {
  const push = metaPush.safeParse(body);
  if (!push.success || push.data.object !== object) return [];
  return push.data.entry.map((entry) => ({
    account: entry.id,
    posts: entry.changes
      .filter((change) => fields.includes(change.field))
      .flatMap((change) => posts(change.value)),
  }));
}

/** The accounts and posts a push names, by platform; an unknown shape names none. */
export function pointersOf(platform: PushPlatform, body: unknown): Pointer[] {
  const found =
    platform === "facebook"
      ? metaPointers(body, "page", ["feed"], (value) => {
          const change = feedComment.safeParse(value);
          return change.success ? feedPostIds(change.data.post_id) : [];
        })
      : platform === "instagram"
        ? metaPointers(body, "instagram", ["comments", "live_comments"], (value) => {
            const change = mediaComment.safeParse(value);
            return change.success ? [change.data.media.id] : [];
          })
        : (Array.isArray(body) ? body : [body]).flatMap((item) => {
            const reply = threadsReply.safeParse(item);
            if (!reply.success) return [];
            const root = reply.data.values.value.root_post;
            return [{ account: root.owner_id, posts: [root.id] }];
          });
  // One entry per account, each post once.
  const byAccount = new Map<string, Set<string>>();
  for (const { account, posts } of found) {
    if (posts.length === 0) continue;
    const set = byAccount.get(account) ?? new Set<string>();
    for (const post of posts) set.add(post);
    byAccount.set(account, set);
  }
  return [...byAccount].map(([account, posts]) => ({ account, posts: [...posts] }));
}
