// The presenter keeps signed media links per isolate for the hour they stay the same (src/posts/present.ts):
// the kept link must be the one signMediaUrl gives, and never one signed under another key or origin.
import { describe, expect, it } from "vitest";
import { signMediaUrl } from "../../src/media/links";
import type { LoadedPost } from "../../src/posts/load";
import { presentPosts } from "../../src/posts/present";

const KEY_A = btoa("a".repeat(32));
const KEY_B = btoa("b".repeat(32));
const at = new Date(Date.UTC(2026, 10, 1, 9, 0));

const loaded = (mediaId: number): LoadedPost =>
  ({
    post: { id: 1, content: ["Hello"], status: "DRAFT", createdAt: at, updatedAt: at, scheduledAt: null },
    workspace: { id: 1, name: "W", slug: "w", type: "PERSONAL", logo: null, timezone: "UTC", language: "en" },
    rows: [],
    labels: [],
    media: [
      { itemIndex: 0, position: 0, media: { id: mediaId, name: "a.jpg", mimeType: "image/jpeg", size: 1 } },
    ],
    comments: [],
  }) as unknown as LoadedPost;

const urlOf = async (key: string, origin: string, mediaId: number) => {
  const [post] = await presentPosts([loaded(mediaId)], {
    env: { ENCRYPTION_KEY: key },
    origin,
    includeComments: false,
  });
  return post!.content[0]!.media[0]!.url;
};

describe("presentPosts: media links kept for their hour", () => {
  it("answers what signMediaUrl signs, per key and origin, however often asked", async () => {
    const a = await urlOf(KEY_A, "https://one.example", 7);
    expect(a).toBe(await signMediaUrl({ ENCRYPTION_KEY: KEY_A }, "https://one.example", 7));
    expect(await urlOf(KEY_A, "https://one.example", 7)).toBe(a);
    const b = await urlOf(KEY_B, "https://one.example", 7);
    expect(b).toBe(await signMediaUrl({ ENCRYPTION_KEY: KEY_B }, "https://one.example", 7));
    expect(b).not.toBe(a);
    expect(await urlOf(KEY_A, "https://two.example", 7)).toBe(
      await signMediaUrl({ ENCRYPTION_KEY: KEY_A }, "https://two.example", 7),
    );
  });
});
