import { describe, expect, it } from "vitest";
import { call } from "../support/client";
import { insertMedia } from "../support/db";
import { createTenant } from "../support/seed";

const future = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

describe("post validation", () => {
  it("422 naming every missing field", async () => {
    const t = await createTenant();
    const res = await call("POST", "/api/v1/posts", { key: t.key, body: {} });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      workspace_id: ["The workspace id field is required."],
      accounts: ["The accounts field is required."],
      content: ["The content field is required."],
    });
    expect(res.body.message).toBe("The workspace id field is required. (and 2 more errors)");
  });

  it.each([
    ["wrong-typed workspace_id", { workspace_id: "1" }, "workspace_id"],
    ["a huge workspace_id", { workspace_id: 1e300 }, "workspace_id"],
    ["empty accounts", { accounts: [] }, "accounts"],
    ["duplicate accounts", { accounts: [1, 1] }, "accounts"],
    ["a string account id", { accounts: ["x"] }, "accounts.0"],
    ["empty content", { content: [] }, "content"],
    ["a content item with neither text nor media", { content: [{ text: "  " }] }, "content.0.text"],
    ["text of the wrong type", { content: [{ text: 5 }] }, "content.0.text"],
    [
      "too many media in an item",
      { content: [{ text: "x", media: Array.from({ length: 21 }, (_, i) => i + 1) }] },
      "content.0.media",
    ],
    ["a past scheduled_at", { scheduled_at: "2020-01-01T00:00:00Z" }, "scheduled_at"],
    ["a scheduled_at without an offset", { scheduled_at: "2031-01-01T00:00:00" }, "scheduled_at"],
    ["scheduled_at and publish_now together", { scheduled_at: future(10), publish_now: true }, "publish_now"],
    ["a non-boolean publish_now", { publish_now: "yes" }, "publish_now"],
    ["repeatable without its fields", { repeatable: true }, "repeatable_times"],
    ["repeat fields without repeatable", { repeatable_gap: 2 }, "repeatable_gap"],
    [
      "an unknown gap unit",
      { repeatable: true, repeatable_times: 2, repeatable_gap: 1, repeatable_gap_unit: "years" },
      "repeatable_gap_unit",
    ],
    [
      "too many repetitions",
      { repeatable: true, repeatable_times: 101, repeatable_gap: 1, repeatable_gap_unit: "days" },
      "repeatable_times",
    ],
    ["settings for an unknown platform", { settings: { myspace: {} } }, "settings.myspace"],
    ["an unknown twitter setting", { settings: { twitter: { colour: "red" } } }, "settings.twitter.colour"],
    [
      "a bad reply_settings",
      { settings: { twitter: { reply_settings: "nobody" } } },
      "settings.twitter.reply_settings",
    ],
    [
      "an enabled poll without options",
      { settings: { twitter: { poll: { enabled: true, duration_minutes: 60 } } } },
      "settings.twitter.poll.options",
    ],
    [
      "a bad tiktok privacy level",
      { settings: { tiktok: { privacy_level: "FRIENDS" } } },
      "settings.tiktok.privacy_level",
    ],
    [
      "a non-URL pinterest link",
      { settings: { pinterest: { link: "javascript:alert(1)" } } },
      "settings.pinterest.link",
    ],
    ["an auto_plug without text", { auto_plug: { threshold: 10 } }, "auto_plug.text"],
    [
      "an auto_plug with a bad metric",
      { auto_plug: { text: "x", metric: "views", threshold: 10 } },
      "auto_plug.metric",
    ],
    ["an auto_plug threshold of 0", { auto_plug: { text: "x", threshold: 0 } }, "auto_plug.threshold"],
  ])("422 for %s", async (_, patch, field) => {
    const t = await createTenant();
    const body = {
      workspace_id: t.workspace.id,
      accounts: [t.accounts[0]!.id],
      content: [{ text: "Hi" }],
      ...patch,
    };
    const res = await call("POST", "/api/v1/posts", { key: t.key, body });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toContain(field);
    expect(res.body.message).toEqual(expect.any(String));
    const list = await call("GET", "/api/v1/posts", { key: t.key });
    expect(list.body.total).toBe(0);
  });

  it("400 for malformed JSON and a non-object body, 415 for a non-JSON body", async () => {
    const t = await createTenant();
    const malformed = await call("POST", "/api/v1/posts", {
      key: t.key,
      rawBody: '{"workspace_id": ',
      headers: { "content-type": "application/json" },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ message: "Malformed JSON in request body." });
    const array = await call("POST", "/api/v1/posts", { key: t.key, body: [1] });
    expect(array.status).toBe(400);
    const text = await call("POST", "/api/v1/posts", {
      key: t.key,
      rawBody: "hello",
      headers: { "content-type": "text/plain" },
    });
    expect(text.status).toBe(415);
  });

  it("422 for a non-numeric post id on get, update and delete", async () => {
    const t = await createTenant();
    for (const method of ["GET", "PUT", "DELETE"]) {
      const res = await call(method, "/api/v1/posts/abc", {
        key: t.key,
        body: method === "PUT" ? {} : undefined,
      });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        message: "The id field must be a positive integer.",
        errors: { id: ["The id field must be a positive integer."] },
      });
    }
    for (const id of ["0", "99999999999999999999", "0x1", "1e1", "007"])
      expect((await call("DELETE", `/api/v1/posts/${id}`, { key: t.key })).status).toBe(422);
  });

  it("422 on update for a past scheduled_at and for repeat fields that do not fit together", async () => {
    const t = await createTenant();
    const created = await call("POST", "/api/v1/posts", {
      key: t.key,
      body: { workspace_id: t.workspace.id, accounts: [t.accounts[0]!.id], content: [{ text: "Hi" }] },
    });
    const id = created.body.id;
    const past = await call("PUT", `/api/v1/posts/${id}`, {
      key: t.key,
      body: { scheduled_at: "2001-01-01T00:00:00+00:00" },
    });
    expect(past.body.errors).toEqual({ scheduled_at: ["The scheduled at field must be a date after now."] });
    const repeat = await call("PUT", `/api/v1/posts/${id}`, {
      key: t.key,
      body: { repeatable: true, repeatable_times: 3 },
    });
    expect(Object.keys(repeat.body.errors).sort()).toEqual(["repeatable_gap", "repeatable_gap_unit"]);
    const unchanged = await call("GET", `/api/v1/posts/${id}`, { key: t.key });
    expect(unchanged.body.repeatable).toBe(false);
  });

  it("refuses a failed media item", async () => {
    const t = await createTenant();
    const broken = await insertMedia(t.workspace.id, { state: "failed" });
    const res = await call("POST", "/api/v1/posts", {
      key: t.key,
      body: {
        workspace_id: t.workspace.id,
        accounts: [t.accounts[0]!.id],
        content: [{ text: "x", media: [broken] }],
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ "content.0.media.0": ["The selected content.0.media.0 is invalid."] });
  });
});
