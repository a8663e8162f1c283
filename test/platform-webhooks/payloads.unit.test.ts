// What each platform's push names (src/platform-webhooks/payloads.ts), in the payload shapes of Meta's
// documentation: Facebook's feed changes, Instagram's comments, Threads' replies.
import { describe, expect, it } from "vitest";
import { pointersOf } from "../../src/platform-webhooks/payloads";

describe("pointersOf", () => {
  it("reads a Page's comment changes, by the Page's post id and the post's own", () => {
    const body = {
      object: "page",
      entry: [
        {
          id: "111",
          time: 1,
          changes: [
            {
              field: "feed",
              value: { item: "comment", verb: "add", post_id: "111_222", comment_id: "222_3" },
            },
            { field: "feed", value: { item: "reaction", post_id: "111_999" } },
            { field: "feed", value: { item: "comment", verb: "edited", post_id: "111_222" } },
          ],
        },
      ],
    };
    expect(pointersOf("facebook", body)).toEqual([{ account: "111", posts: ["111_222", "222"] }]);
    expect(pointersOf("facebook", { ...body, object: "instagram" })).toEqual([]);
  });

  it("reads Instagram's comments by media, and skips an album's comment that names none", () => {
    const body = {
      object: "instagram",
      entry: [
        {
          id: "17841405309211844",
          time: 1,
          changes: [
            { field: "comments", value: { id: "17865799348089039", text: "Nice", media: { id: "1789" } } },
            { field: "comments", value: { id: "178", text: "On an album" } },
            { field: "mentions", value: { media_id: "555", comment_id: "666" } },
          ],
        },
      ],
    };
    expect(pointersOf("instagram", body)).toEqual([{ account: "17841405309211844", posts: ["1789"] }]);
  });

  it("reads Threads' replies by their root post and its owner", () => {
    const body = {
      app_id: "123456",
      topic: "moderate",
      target_id: "78901",
      time: 1723226877,
      values: {
        field: "replies",
        value: {
          id: "8901234",
          text: "Reply",
          replied_to: { id: "567890" },
          root_post: { id: "123456", owner_id: "42" },
        },
      },
    };
    expect(pointersOf("threads", body)).toEqual([{ account: "42", posts: ["123456"] }]);
    expect(pointersOf("threads", [body, body])).toEqual([{ account: "42", posts: ["123456"] }]);
    expect(pointersOf("threads", { values: { field: "mentions", value: {} } })).toEqual([]);
  });
});
