// The sandbox's engagement numbers: made up, but the same for a post id every time, so tests and
// demos can rely on them.
import type { Platform } from "../../db/enums";
import { utf8 } from "../../lib/encoding";
import type { PostMetrics } from "../types";

/** Deterministic engagement numbers for a post id. */
export async function sandboxMetrics(platform: Platform, postId: string): Promise<PostMetrics> {
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", utf8(`sandbox-post:${platform}:${postId}`)),
  );
  const byte = (i: number) => digest[i] ?? 0;
  const impressions = 100 + (((byte(0) << 8) | byte(1)) % 9901);
  const likes = Math.floor((impressions * (1 + (byte(2) % 10))) / 100);
  const comments = Math.floor((likes * (byte(3) % 20)) / 100);
  const shares = Math.floor((likes * (byte(4) % 15)) / 100);
  const quotes =
    platform === "twitter" || platform === "threads" ? Math.floor((shares * (byte(5) % 50)) / 100) : 0;
  const saves = Math.floor((likes * (byte(6) % 25)) / 100);
  const engaged = likes + comments + shares + quotes + saves;
  const engagement_rate = Math.round((engaged / impressions) * 10_000) / 100;
  return { comments, likes, shares, impressions, quotes, saves, engagement_rate };
}
