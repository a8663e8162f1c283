// The facts the Instagram and Threads adapters and their emulators each state from Meta's
// documentation (neither imports the other's): checked against each other here.
import { describe, expect, it } from "vitest";
import { CAROUSEL_MAX, TEXT_LIMIT as IG_TEXT } from "../../src/platforms/instagram/rules";
import {
  CAROUSEL_MAX as THREADS_CAROUSEL_MAX,
  TEXT_LIMIT as THREADS_TEXT,
} from "../../src/platforms/threads/rules";
import { CAPTION_MAX, CAROUSEL as IG_CAROUSEL } from "../../src/sandbox/instagram/rules";
import { TEXT_MAX, CAROUSEL as THREADS_CAROUSEL } from "../../src/sandbox/threads/rules";

describe("Meta's limits, as the adapters and the emulators read them", () => {
  it("Instagram: a caption's 2,200 characters, a carousel's 10 media", () => {
    expect(IG_TEXT).toBe(CAPTION_MAX);
    expect(CAROUSEL_MAX).toBe(IG_CAROUSEL.max);
  });

  it("Threads: a post's 500 characters, a carousel's 20 media", () => {
    expect(THREADS_TEXT).toBe(TEXT_MAX);
    expect(THREADS_CAROUSEL_MAX).toBe(THREADS_CAROUSEL.max);
  });
});
