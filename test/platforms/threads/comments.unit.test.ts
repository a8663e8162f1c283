// The account's reply calls on the wire (Threads › Reply Management; Delete Posts): hide and unhide
// (manage_reply), delete (a reply already gone resolving, a refusal kept), and the platform's rules.
import { describe, expect, it } from "vitest";
import { commentRules } from "../../../src/platforms/threads/comments";
import { adapterFor, json, replay } from "../replay";
import { HANDLE, LONG_LIVED, USER_ID } from "./recorded";

const GRAPH = "https://graph.threads.net/v1.0";
const account = { handle: HANDLE, platformUserId: USER_ID, accessToken: LONG_LIVED };
const reply = { id: "1790", postId: "1780", parentId: null, isOwn: false, hidden: false };
const own = { ...reply, id: "1791", parentId: "1790", isOwn: true };

describe("threads reply calls", () => {
  it("hides and shows a reply with manage_reply, deletes the account's own", async () => {
    const { fetch, requests } = replay(
      json({ success: true }),
      json({ success: true }),
      json({ success: true, deleted_id: "1791" }),
      json(
        {
          error: {
            message: "Unsupported delete request.",
            type: "THApiException",
            code: 100,
            error_subcode: 33,
          },
        },
        400,
      ),
    );
    const adapter = adapterFor("threads", fetch);
    await adapter.hideComment!(account, reply, true);
    await adapter.hideComment!(account, reply, false);
    await adapter.deleteComment!(account, own);
    // Already gone: done.
    await adapter.deleteComment!(account, own);
    expect(requests.map((r) => `${r.method} ${r.url.split("?")[0]}`)).toEqual([
      `POST ${GRAPH}/1790/manage_reply`,
      `POST ${GRAPH}/1790/manage_reply`,
      `DELETE ${GRAPH}/1791`,
      `DELETE ${GRAPH}/1791`,
    ]);
    expect(new URLSearchParams(await requests[0]!.text()).get("hide")).toBe("true");
    expect(new URLSearchParams(await requests[1]!.text()).get("hide")).toBe("false");
    expect(requests[2]!.headers.get("authorization")).toBe(`Bearer ${LONG_LIVED}`);
  });

  it("keeps a refused delete (no threads_delete granted) as a permanent permission failure", async () => {
    const { fetch } = replay(
      json(
        {
          error: {
            message: "(#10) Application does not have permission for this action",
            type: "THApiException",
            code: 10,
          },
        },
        400,
      ),
    );
    await expect(adapterFor("threads", fetch).deleteComment!(account, own)).rejects.toMatchObject({
      kind: "permanent",
      code: "permission_denied",
    });
  });

  it("hides top-level replies only; deletes the account's own only", () => {
    expect(commentRules("hide", reply)).toBeNull();
    expect(commentRules("hide", { ...reply, parentId: "1789" })).toMatch(/top-level/);
    expect(commentRules("delete", reply)).toMatch(/own/);
    expect(commentRules("delete", own)).toBeNull();
    expect(commentRules("reply", { ...reply, parentId: "1789" })).toBeNull();
  });
});
