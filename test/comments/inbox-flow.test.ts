// The inbox end to end on the sandbox: a follower comments on a published X post (the sandbox's follower
// tool), the analytics sync reads the conversation through the real X adapter, and the comments reach
// GET /api/v1/comments with their parent, address and author, the account's own answer as `is_own`;
// a second sync stores nothing twice.
import { describe, expect, it } from "vitest";
import { deliver as deliverSync } from "../analytics/queue";
import { connected, follow, published } from "../sandbox/support";
import { call } from "../support/client";

describe("the comment inbox on the sandbox", () => {
  it("lists a follower's comment and the replies under it after a sync, once", async () => {
    const account = await connected("twitter");
    const { rows } = await published(account, { content: [{ text: "Ask me anything" }] });
    const row = rows[0]!;
    const postId = row.platform_post_id!;
    const first = await follow("twitter", account.handle, {
      post_id: postId,
      text: "When is the next one?",
      author: { name: "Fan One", username: "fan_one" },
    });
    const own = await follow("twitter", account.handle, {
      post_id: postId,
      text: "Next week!",
      author: account.handle,
      parent_id: first.body.id,
    });
    expect([first.status, own.status]).toEqual([201, 201]);

    expect((await deliverSync([row.id])).retryMessages).toEqual([]);
    const listed = await call("GET", `/api/v1/comments?account_id=${account.accountId}`, {
      key: account.key,
    });
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    const data = listed.body.data as Array<Record<string, any>>;
    const byPlatformId = new Map(data.map((c) => [c.platform_comment_id, c]));
    const parent = byPlatformId.get(first.body.id);
    const answer = byPlatformId.get(own.body.id);
    expect(parent).toMatchObject({
      content: "When is the next one?",
      author_name: "Fan One",
      platform: "twitter",
      account_id: account.accountId,
      parent_id: null,
      is_own: false,
      url: `https://x.com/fan_one/status/${first.body.id}`,
      contact: { name: "Fan One", username: "fan_one", profile_url: "https://x.com/fan_one" },
    });
    expect(answer).toMatchObject({ content: "Next week!", parent_id: parent!.id, is_own: true });
    // Newest first.
    expect(data.map((c) => c.id)).toEqual([...data.map((c) => c.id)].sort((a, b) => b - a));

    // A second sync reads the same conversation: nothing is stored twice (comment.received once per
    // comment under redelivery: received.test.ts).
    expect((await deliverSync([row.id])).retryMessages).toEqual([]);
    const again = await call("GET", `/api/v1/comments?account_id=${account.accountId}`, { key: account.key });
    expect(again.body.data).toEqual(data);
  });
});
