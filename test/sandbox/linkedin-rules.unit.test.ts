// The LinkedIn emulator's facts against the adapter's, each stated on its own from LinkedIn's pages (an
// emulator imports nothing of the adapter's): lengths, counts and sizes agree, and the emulator's
// activity ids read like the documentation's examples (time-ordered, 19 digits).
import { describe, expect, it } from "vitest";
import { COMMENT_MAX, MEDIA, TEXT_LIMIT } from "../../src/platforms/linkedin/rules";
import {
  activityId,
  activityTime,
  COMMENTARY_MAX,
  COMMENT_MAX as EMULATED_COMMENT_MAX,
  MULTI_IMAGE_MAX,
  VIDEO_MAX_BYTES,
  VIDEO_MIN_BYTES,
} from "../../src/sandbox/linkedin/rules";
import { SHARE, UGC_POST } from "../platforms/linkedin/recorded";

describe("LinkedIn's emulator and adapter read the same limits", () => {
  it("commentary, comment, images and video sizes", () => {
    expect(COMMENTARY_MAX).toBe(TEXT_LIMIT);
    expect(EMULATED_COMMENT_MAX).toBe(COMMENT_MAX);
    expect(MULTI_IMAGE_MAX).toBe(MEDIA.post.maxImages);
    expect(VIDEO_MIN_BYTES).toBe(MEDIA.post.minBytes?.video);
    expect(VIDEO_MAX_BYTES).toBe(MEDIA.post.maxBytes?.video);
  });
});

describe("LinkedIn activity ids on the emulator", () => {
  it("read like the documentation's: their time above the lowest 22 bits", () => {
    for (const urn of [SHARE, UGC_POST]) {
      const id = /\d+$/.exec(urn)![0];
      const year = new Date(activityTime(id)).getUTCFullYear();
      expect(year).toBeGreaterThanOrEqual(2016);
      expect(year).toBeLessThanOrEqual(2026);
    }
  });

  it("grow with the clock, 19 digits, each after the last even within one millisecond", () => {
    const now = Date.UTC(2026, 4, 1);
    const ids = [activityId(now), activityId(now), activityId(now + 1), activityId(now + 60_000)];
    for (const id of ids) expect(id).toMatch(/^\d{19}$/);
    for (let i = 1; i < ids.length; i++) expect(BigInt(ids[i]!)).toBeGreaterThan(BigInt(ids[i - 1]!));
    expect(activityTime(ids[3]!)).toBe(now + 60_000);
  });
});
