// YouTube's comment rules (src/platforms/youtube/comments.ts), pure: what the inbox may do to a comment.
import { describe, expect, it } from "vitest";
import { SPECS } from "../../../src/platforms/catalog";

const theirs = { id: "Ugx1", postId: "dQw4w9WgXcQ", parentId: null, isOwn: false, hidden: false };

describe("YouTube comment rules", () => {
  it("only the author deletes (others are hidden instead); replies and hiding are allowed on any comment", () => {
    expect(SPECS.youtube.commentRules?.("delete", theirs)).toMatch(/only a comment's author.*hide/);
    expect(SPECS.youtube.commentRules?.("delete", { ...theirs, isOwn: true })).toBeNull();
    expect(SPECS.youtube.commentRules?.("reply", { ...theirs, parentId: "Ugx0" })).toBeNull();
    expect(SPECS.youtube.commentRules?.("hide", theirs)).toBeNull();
  });
});
