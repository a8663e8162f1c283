// LinkedIn's comment rules (src/platforms/linkedin/comments.ts), pure: what the inbox may do to a comment.
import { describe, expect, it } from "vitest";
import { SPECS } from "../../../src/platforms/catalog";

const POST = "urn:li:share:7141138937766391808";
const theirs = {
  id: `urn:li:comment:(${POST},1)`,
  postId: POST,
  parentId: null,
  isOwn: false,
  hidden: false,
};

describe("LinkedIn comment rules", () => {
  it("deletes only the account's own comments; answers any comment; offers no hiding", () => {
    expect(SPECS.linkedin.commentRules?.("delete", theirs)).toMatch(/own comments/);
    expect(SPECS.linkedin.commentRules?.("delete", { ...theirs, isOwn: true })).toBeNull();
    expect(
      SPECS.linkedin.commentRules?.("reply", { ...theirs, parentId: `urn:li:comment:(${POST},0)` }),
    ).toBeNull();
    expect(SPECS.linkedin.publishing(CONTEXT).hideComment).toBeUndefined();
  });
});

const CONTEXT = {
  credentials: { clientId: "id", clientSecret: "secret" },
  fetch: () => Promise.reject(new Error("no calls")),
  now: () => 0,
  sleep: async () => {},
  timeouts: { call: 1000, upload: 1000 },
  hosts: {},
} as unknown as Parameters<typeof SPECS.linkedin.publishing>[0];
