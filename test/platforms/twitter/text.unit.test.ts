// X's weighted character count (docs.x.com › Fundamentals › Counting characters), which its check and
// the sandbox's X emulator both apply to what X receives.
import { describe, expect, it } from "vitest";
import { WEIGHTED_LIMIT, weightedLength } from "../../../src/platforms/twitter/text";

describe("weightedLength", () => {
  it("counts Latin text by code point, CJK and emoji as 2, every link as 23, after NFC", () => {
    expect(WEIGHTED_LIMIT).toBe(280);
    expect(weightedLength("a".repeat(280))).toBe(280);
    expect(weightedLength("字".repeat(140))).toBe(280);
    expect(weightedLength("字".repeat(141))).toBe(282);
    expect(weightedLength("😀")).toBe(2);
    expect(weightedLength("👩‍👩‍👧")).toBe(2);
    expect(weightedLength("see https://example.com/a/very/long/path/that/goes/on?and=on")).toBe(4 + 23);
    expect(weightedLength("e\u0301")).toBe(1);
    // Dashes and curly quotes are in the light ranges; the ellipsis (U+2026) is not.
    expect(weightedLength("—“quotes”…")).toBe(11);
  });
});
