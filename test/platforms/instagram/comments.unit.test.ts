// The account's comment calls on the wire (Instagram Platform › Comment Moderation; IG Comment › Replies):
// a reply, hide and unhide, delete, a comment already gone resolving, and the platform's rules.
import { describe, expect, it } from "vitest";
import { commentRules } from "../../../src/platforms/instagram/comments";
import { adapterFor, json, replay } from "../replay";
import { account, GRAPH } from "./support";

const comment = { id: "17890", postId: "18001", parentId: null, isOwn: false, hidden: false };

describe("instagram comment calls", () => {
  it("replies under the comment (its media's permalink), hides and shows it, deletes it; a second delete resolves", async () => {
    const { fetch, requests } = replay(
      json({ id: "17891" }),
      json({ permalink: "https://www.instagram.com/p/abc/" }),
      json({ success: true }),
      json({ success: true }),
      json({ success: true }),
      json(
        {
          error: {
            message: "Unsupported delete request.",
            type: "OAuthException",
            code: 100,
            error_subcode: 33,
          },
        },
        400,
      ),
    );
    const adapter = adapterFor("instagram", fetch);
    expect(await adapter.replyToComment!(account, comment, "Thanks")).toEqual({
      id: "17891",
      url: "https://www.instagram.com/p/abc/",
    });
    await adapter.hideComment!(account, comment, true);
    await adapter.hideComment!(account, comment, false);
    await adapter.deleteComment!(account, comment);
    await adapter.deleteComment!(account, comment);
    expect(requests.map((r) => `${r.method} ${r.url.split("?")[0]}`)).toEqual([
      `POST ${GRAPH}/17890/replies`,
      `GET ${GRAPH}/18001`,
      `POST ${GRAPH}/17890`,
      `POST ${GRAPH}/17890`,
      `DELETE ${GRAPH}/17890`,
      `DELETE ${GRAPH}/17890`,
    ]);
    expect(new URLSearchParams(await requests[0]!.text()).get("message")).toBe("Thanks");
    expect(new URLSearchParams(await requests[2]!.text()).get("hide")).toBe("true");
    expect(new URLSearchParams(await requests[3]!.text()).get("hide")).toBe("false");
  });

  it("answers top-level comments that are not hidden; never hides the account's own", () => {
    expect(commentRules("reply", comment)).toBeNull();
    expect(commentRules("reply", { ...comment, parentId: "17889" })).toMatch(/top-level/);
    expect(commentRules("reply", { ...comment, hidden: true })).toMatch(/hidden/);
    expect(commentRules("hide", { ...comment, isOwn: true })).toMatch(/own comments/);
    expect(commentRules("delete", { ...comment, isOwn: true, parentId: "17889" })).toBeNull();
  });
});
