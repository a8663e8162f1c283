// The Display API as the emulator answers it (developers.tiktok.com › Display API: List Videos, Query
// Videos, Video Object): the creator's public videos, newest first by cursor, and their counts. The list
// is what the adapter's `find` reads, the query what its insights read.
import { z } from "zod";
import { type Emulated, refuse } from "../emulator";
import { ok } from "./errors";
import { settleAll } from "./publish";

type Post = Awaited<ReturnType<Emulated["posts"]>>[number];

const videoList = z.object({
  cursor: z.number().int().nonnegative().optional(),
  max_count: z.number().int().min(1).max(20).optional(),
});
const videoQuery = z.object({
  filters: z.object({ video_ids: z.array(z.string().min(1).max(64)).min(1).max(20) }),
});

const VIDEO_FIELDS = [
  "id",
  "create_time",
  "cover_image_url",
  "share_url",
  "video_description",
  "duration",
  "height",
  "width",
  "title",
  "embed_html",
  "embed_link",
  "like_count",
  "comment_count",
  "share_count",
  "view_count",
] as const;

/** The `fields` query parameter the Display API and user info require. */
export function fieldsOf(raw: string | undefined, allowed: readonly string[]): Set<string> {
  if (!raw) return refuse(400, "invalid_request", "The fields parameter is required.");
  const fields = raw.split(",").map((f) => f.trim());
  const unknown = fields.find((f) => !allowed.includes(f));
  if (unknown) return refuse(400, "invalid_request", `Invalid field: ${unknown}.`);
  return new Set(fields);
}

export const pick = (all: Record<string, unknown>, fields: Set<string>) =>
  Object.fromEntries(Object.entries(all).filter(([key]) => fields.has(key)));

/** The Video Object of a post: the Display API keeps 150 characters of a title or description. */
async function displayVideo(emulated: Emulated, post: Post, handle: string, fields: Set<string>) {
  const request = post.platform_request as { post_info?: { title?: string; description?: string } } | null;
  const caption = (post.text[0] ?? "").slice(0, 150);
  const info = request?.post_info ?? {};
  const counted = ["like_count", "view_count", "comment_count", "share_count"].some((f) => fields.has(f));
  const metrics = counted ? await emulated.metrics(post.id) : null;
  const all: Record<string, unknown> = {
    id: post.id,
    create_time: Math.floor(Date.parse(post.published_at) / 1000),
    title: (info.title ?? caption).slice(0, 150),
    video_description: (info.description ?? caption).slice(0, 150),
    share_url: `https://www.tiktok.com/@${encodeURIComponent(handle)}/video/${post.id}`,
    embed_link: `https://www.tiktok.com/player/v1/${post.id}`,
    embed_html: `<blockquote class="tiktok-embed" data-video-id="${post.id}"></blockquote>`,
    cover_image_url: `${emulated.base}/posts/${post.id}`,
    duration: 15,
    height: 1920,
    width: 1080,
    like_count: metrics?.likes ?? 0,
    comment_count: metrics?.comments ?? 0,
    share_count: metrics?.shares ?? 0,
    view_count: metrics?.impressions ?? 0,
  };
  return pick(all, fields);
}

/** List Videos: the creator's public videos, newest first, by cursor (create time in ms). */
export async function listVideos(emulated: Emulated, fieldsParam: string | undefined) {
  const caller = await emulated.caller();
  const fields = fieldsOf(fieldsParam, VIDEO_FIELDS);
  const body = await emulated.json(videoList);
  await settleAll(emulated, caller.handle);
  const max = body.max_count ?? 10;
  const all = (await emulated.posts(caller.handle)).reverse();
  const older =
    body.cursor === undefined ? all : all.filter((p) => Date.parse(p.published_at) < body.cursor!);
  const page = older.slice(0, max);
  const videos = await Promise.all(page.map((post) => displayVideo(emulated, post, caller.handle, fields)));
  const last = page.at(-1);
  return ok({
    videos,
    cursor: last ? Date.parse(last.published_at) : (body.cursor ?? 0),
    has_more: older.length > page.length,
  });
}

/** Query Videos: the creator's own public videos among the ids given, with their counts. */
export async function queryVideos(emulated: Emulated, fieldsParam: string | undefined) {
  const caller = await emulated.caller();
  const fields = fieldsOf(fieldsParam, VIDEO_FIELDS);
  const body = await emulated.json(videoQuery);
  await settleAll(emulated, caller.handle);
  const mine = new Map((await emulated.posts(caller.handle)).map((post) => [post.id, post]));
  const found = body.filters.video_ids.flatMap((id) => (mine.has(id) ? [mine.get(id)!] : []));
  const videos = await Promise.all(found.map((post) => displayVideo(emulated, post, caller.handle, fields)));
  return ok({ videos, cursor: 0, has_more: false });
}
