// The Page's comment calls on the wire (Graph API › Comment; Object › Comments): a reply, hide and
// unhide, delete, a comment already gone resolving, a refusal kept, and the platform's rules.
import { describe, expect, it } from "vitest";
import { commentRules } from "../../../src/platforms/facebook/comments";
import { adapterFor, json, replay } from "../replay";
import { PAGE_ID } from "./recorded";
import { GRAPH, page } from "./support";

const comment = { id: "111_222", postId: `${PAGE_ID}_111`, parentId: null, isOwn: false, hidden: false };
const gone = {
  error: {
    message: "Unsupported delete request.",
    type: "GraphMethodException",
    code: 100,
    error_subcode: 33,
  },
};

describe("facebook comment calls", () => {
  it("replies under the comment, hides and shows it, deletes it", async () => {
    const { fetch, requests } = replay(
      json({ id: "111_333" }),
      json({ permalink_url: "https://www.facebook.com/p/1?comment_id=111_333" }),
      json({ success: true }),
      json({ success: true }),
      json({ success: true }),
    );
    const adapter = adapterFor("facebook", fetch);
    expect(await adapter.replyToComment!(page, comment, "Thanks")).toEqual({
      id: "111_333",
      url: "https://www.facebook.com/p/1?comment_id=111_333",
    });
    await adapter.hideComment!(page, comment, true);
    await adapter.hideComment!(page, comment, false);
    await adapter.deleteComment!(page, comment);
    expect(requests.map((r) => `${r.method} ${r.url.split("?")[0]}`)).toEqual([
      `POST ${GRAPH}/111_222/comments`,
      `GET ${GRAPH}/111_333`,
      `POST ${GRAPH}/111_222`,
      `POST ${GRAPH}/111_222`,
      `DELETE ${GRAPH}/111_222`,
    ]);
    expect(new URLSearchParams(await requests[0]!.text()).get("message")).toBe("Thanks");
    expect(new URLSearchParams(await requests[2]!.text()).get("is_hidden")).toBe("true");
    expect(new URLSearchParams(await requests[3]!.text()).get("is_hidden")).toBe("false");
    // Every call carries the Page token's appsecret_proof.
    expect(new URL(requests[4]!.url).searchParams.get("appsecret_proof")).toMatch(/^[0-9a-f]{64}$/);
  });

  it("resolves the delete of a comment already gone; keeps any other refusal", async () => {
    const { fetch } = replay(
      json(gone, 400),
      json({ error: { message: "(#200) Permissions error", type: "OAuthException", code: 200 } }, 403),
    );
    const adapter = adapterFor("facebook", fetch);
    await adapter.deleteComment!(page, comment);
    await expect(adapter.deleteComment!(page, comment)).rejects.toMatchObject({
      kind: "permanent",
      code: "permission_denied",
    });
  });

  it("refuses hiding the Page's own comment; allows the rest", () => {
    expect(commentRules("hide", { ...comment, isOwn: true })).toMatch(/own comments/);
    expect(commentRules("hide", comment)).toBeNull();
    expect(commentRules("reply", { ...comment, isOwn: true, parentId: "111_1" })).toBeNull();
    expect(commentRules("delete", { ...comment, isOwn: true })).toBeNull();
  });
});
