// The facts YouTube's adapter and its emulator each state from the Videos resource page: the title the
// adapter cuts to and the emulator refuses past, and the description limit.
import { describe, expect, it } from "vitest";
import { TITLE_MAX, titleFrom } from "../../../src/platforms/youtube/publish";
import { TEXT_LIMIT } from "../../../src/platforms/youtube/rules";
import { LIMITS } from "../../../src/sandbox/youtube/rules";

describe("youtube limits, adapter and emulator", () => {
  it("agree on the title (100 characters) and the description (5000)", () => {
    expect(TITLE_MAX).toBe(LIMITS.title);
    expect(TEXT_LIMIT).toBe(LIMITS.descriptionBytes);
  });

  it("a title made from a long first line fits the emulator's limit", () => {
    expect([...titleFrom("é".repeat(300), "clip.mp4")].length).toBeLessThanOrEqual(LIMITS.title);
  });
});
