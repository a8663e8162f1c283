// Pinterest's description limit, stated twice from the docs (Create Pin: description ≤ 800): by the
// adapter's rule and by the emulator's own; they must agree, and 800 characters pass where 801 do not.
import { describe, expect, it } from "vitest";
import { check, TEXT_LIMIT } from "../../../src/platforms/pinterest/rules";
import { LIMITS } from "../../../src/sandbox/pinterest/rules";

const image = { mime: "image/jpeg", kind: "image" as const, size: 1000 };
const problemsOf = (text: string) =>
  check({ items: [{ text, media: [image] }], settings: { board_id: "1" } }).map((p) => p.field);

describe("pinterest description limit", () => {
  it("is 800 characters in the adapter and in the emulator", () => {
    expect(TEXT_LIMIT).toBe(800);
    expect(LIMITS.description).toBe(TEXT_LIMIT);
  });

  it("passes 800 characters and refuses 801", () => {
    expect(problemsOf("a".repeat(800))).toEqual([]);
    expect(problemsOf("a".repeat(801))).toEqual(["content.0.text"]);
  });
});
