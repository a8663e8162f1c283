// The comment MCP tools: list_comments answered by GET /api/v1/comments with its filters and cursor;
// reply_to_comment, hide_comment, unhide_comment and delete_comment by their routes, on the X sandbox.
import { exports } from "cloudflare:workers";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { deliver as deliverSync } from "../analytics/queue";
import { connected, follow, published } from "../sandbox/support";
import { call, ORIGIN } from "../support/client";
import { insertComment } from "../support/db";
import { createPost, createTenant } from "../support/seed";

const text = (result: unknown) =>
  JSON.parse((result as { content: Array<{ text: string }> }).content[0]!.text);

describe("list_comments", () => {
  it("lists the inbox through the route, a page at a time by cursor, and refuses an unknown filter", async () => {
    const t = await createTenant();
    const post = await createPost(t, { accounts: [t.accounts[0]!.id] });
    const older = await insertComment(post.id, { platform_comment_id: "a" });
    const newer = await insertComment(post.id, { platform_comment_id: "b" });
    const client = new Client({ name: "mcp-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${ORIGIN}/mcp`), {
        fetch: (url, init) => exports.default.fetch(new Request(url, init)),
        requestInit: { headers: { authorization: `Bearer ${t.key}` } },
      }),
    );
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === "list_comments")?.inputSchema.properties).toHaveProperty(
      "cursor",
    );
    const first = text(
      await client.callTool({ name: "list_comments", arguments: { post_id: post.id, per_page: 1 } }),
    );
    expect(first.data.map((c: { id: number }) => c.id)).toEqual([newer]);
    const second = text(
      await client.callTool({
        name: "list_comments",
        arguments: { post_id: post.id, per_page: 1, cursor: first.next_cursor },
      }),
    );
    expect(second.data.map((c: { id: number }) => c.id)).toEqual([older]);
    const refused = await client.callTool({ name: "list_comments", arguments: { author: "x" } });
    expect(refused.isError).toBe(true);
    await client.close();
  });
});

async function mcpClient(key: string) {
  const client = new Client({ name: "mcp-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${ORIGIN}/mcp`), {
      fetch: (url, init) => exports.default.fetch(new Request(url, init)),
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

describe("reply_to_comment, hide_comment, unhide_comment, delete_comment", () => {
  it("answer, hide, show and delete through the routes, with strict inputs", async () => {
    const account = await connected("twitter");
    const { rows } = await published(account, { content: [{ text: "Questions?" }] });
    const fan = await follow("twitter", account.handle, {
      post_id: rows[0]!.platform_post_id!,
      text: "One!",
      author: { name: "Fan", username: "fan" },
    });
    expect((await deliverSync([rows[0]!.id])).retryMessages).toEqual([]);
    const listed = await call("GET", `/api/v1/comments?account_id=${account.accountId}`, {
      key: account.key,
    });
    const comment = listed.body.data.find(
      (c: { platform_comment_id: string }) => c.platform_comment_id === fan.body.id,
    );
    const client = await mcpClient(account.key);
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === "reply_to_comment")?.inputSchema.required).toEqual(
      expect.arrayContaining(["id", "text"]),
    );
    const reply = text(
      await client.callTool({
        name: "reply_to_comment",
        arguments: { id: comment.id, text: "Sure", idempotency_key: `k-${crypto.randomUUID()}` },
      }),
    );
    expect(reply).toMatchObject({ is_own: true, parent_id: comment.id, content: "Sure" });
    const hidden = await client.callTool({
      name: "hide_comment",
      arguments: { id: comment.id, idempotency_key: "h1" },
    });
    expect(text(hidden).hidden, JSON.stringify(hidden)).toBe(true);
    expect(
      text(
        await client.callTool({
          name: "unhide_comment",
          arguments: { id: comment.id, idempotency_key: "u1" },
        }),
      ).hidden,
    ).toBe(false);
    expect(
      text(
        await client.callTool({ name: "delete_comment", arguments: { id: reply.id, idempotency_key: "d1" } }),
      ),
    ).toEqual({
      message: "Comment deleted successfully.",
    });
    const refused = await client.callTool({
      name: "hide_comment",
      arguments: { id: comment.id, hidden: true, idempotency_key: "h2" },
    });
    // No field but the id: hide and unhide are two tools.
    expect(refused.isError).toBe(true);
    expect(text(refused).errors).toHaveProperty("hidden");
    await client.close();
  });
});
