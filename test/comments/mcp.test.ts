// The list_comments MCP tool: answered by GET /api/v1/comments with its filters and cursor.
import { exports } from "cloudflare:workers";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { ORIGIN } from "../support/client";
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
