// D1 Sessions (src/http/context.ts): every answer carries the session's bookmark; a request that sends
// one back reads at least that fresh; anything that is not a bookmark is refused before it reaches D1.
import { describe, expect, it } from "vitest";
import { call } from "../support/client";
import { createTenant } from "../support/seed";

const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;

describe("X-D1-Bookmark", () => {
  it("comes with reads and writes, and a write's bookmark is never older than the read before it", async () => {
    const t = await createTenant();
    const read = await call("GET", "/api/v1/labels", { key: t.key });
    const before = read.headers.get("x-d1-bookmark");
    expect(before).toMatch(BOOKMARK);
    const created = await call("POST", "/api/v1/labels", {
      key: t.key,
      body: { workspace_id: t.workspace.id, name: "fresh", color: "#123456" },
    });
    const after = created.headers.get("x-d1-bookmark");
    expect(after).toMatch(BOOKMARK);
    // Bookmarks compare lexically (fixed-width hex): later commits sort later.
    expect(after! >= before!).toBe(true);
  });

  it("reads your write when the bookmark is sent back", async () => {
    const t = await createTenant();
    const created = await call("POST", "/api/v1/labels", {
      key: t.key,
      body: { workspace_id: t.workspace.id, name: "mine", color: "#123456" },
    });
    const bookmark = created.headers.get("x-d1-bookmark")!;
    const list = await call("GET", `/api/v1/labels?workspace_id=${t.workspace.id}`, {
      key: t.key,
      headers: { "x-d1-bookmark": bookmark },
    });
    expect(list.status).toBe(200);
    expect(list.body.data.map((l: { name: string }) => l.name)).toContain("mine");
    expect(list.headers.get("x-d1-bookmark")! >= bookmark).toBe(true);
  });

  it.each([
    "garbage",
    "0000000a-00000001",
    "'; DROP TABLE posts; --",
    "a".repeat(5000),
    // A shard prefix is a shard's number: never 0 (shard 0's bookmarks are bare) or past the last shard.
    `0:00000000-00000000-00000000-${"0".repeat(32)}`,
    `8192:00000000-00000000-00000000-${"0".repeat(32)}`,
    `x:00000000-00000000-00000000-${"0".repeat(32)}`,
  ])("refuses %s with a 400 naming the header", async (value) => {
    const t = await createTenant();
    const res = await call("GET", "/api/v1/labels", { key: t.key, headers: { "x-d1-bookmark": value } });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain("X-D1-Bookmark");
  });

  it("applies a bookmark only to the shard it came from: another shard's bookmark leaves this read free", async () => {
    const one = await createTenant({}, 1);
    const zero = await createTenant();
    const written = await call("POST", "/api/v1/labels", {
      key: one.key,
      body: { workspace_id: one.workspace.id, name: "shard one", color: "#00ff00" },
    });
    const bookmark = written.headers.get("x-d1-bookmark")!;
    expect(bookmark).toMatch(/^1:/);
    const elsewhere = await call("GET", "/api/v1/labels", {
      key: zero.key,
      headers: { "x-d1-bookmark": bookmark },
    });
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.headers.get("x-d1-bookmark")).not.toMatch(/:/);
    const same = await call("GET", "/api/v1/labels", {
      key: one.key,
      headers: { "x-d1-bookmark": bookmark },
    });
    expect(same.body.data.map((l: { name: string }) => l.name)).toContain("shard one");
    expect(same.headers.get("x-d1-bookmark")! >= bookmark).toBe(true);
  });

  it("ignores an empty header", async () => {
    const t = await createTenant();
    const res = await call("GET", "/api/v1/labels", { key: t.key, headers: { "x-d1-bookmark": "" } });
    expect(res.status).toBe(200);
  });
});
