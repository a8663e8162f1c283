// The MCP endpoint through the SDK's own client, against the worker's fetch: initialize, the tool list,
// calls answered by the REST routes (a create then a get, a validation refusal, a missing ability), the
// 401 without a key, the rate window shared with REST.

import { exports } from "cloudflare:workers";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { TOOLS } from "../../src/mcp/tools";
import { call, ORIGIN } from "../support/client";
import { createKey, createPost, createTenant } from "../support/seed";

const workerFetch = (url: string | URL, init?: RequestInit) => exports.default.fetch(new Request(url, init));

async function connect(key: string | null) {
  const client = new Client({ name: "mcp-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${ORIGIN}/mcp`), {
    fetch: workerFetch,
    requestInit: key ? { headers: { authorization: `Bearer ${key}` } } : {},
  });
  await client.connect(transport);
  return client;
}

type Result = {
  content: { type: string; text: string }[];
  isError?: boolean;
  _meta?: Record<string, unknown>;
};
const json = (result: unknown) => JSON.parse((result as Result).content[0]!.text);

describe("/mcp", () => {
  it("initializes on a current protocol version and names the server", async () => {
    const t = await createTenant();
    const client = new Client({ name: "mcp-test", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(`${ORIGIN}/mcp`), {
      fetch: workerFetch,
      requestInit: { headers: { authorization: `Bearer ${t.key}` } },
    });
    await client.connect(transport);
    // Stateless: no session id; the newest protocol version the SDK speaks, 2025-06-18 or later.
    expect(transport.sessionId).toBeUndefined();
    expect(transport.protocolVersion! >= "2025-06-18").toBe(true);
    expect(client.getServerVersion()?.name).toBe("social-publishing-api");
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    expect(client.getInstructions()).toContain("validate_post");
    await client.close();
  });

  it("lists every tool with an input schema; create_post says to validate first", async () => {
    const t = await createTenant();
    const client = await connect(t.key);
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    for (const required of [
      "list_workspaces",
      "list_accounts",
      "list_posts",
      "get_post",
      "validate_post",
      "create_post",
      "update_post",
      "delete_post",
      "retry_post",
      "get_post_analytics",
      "sync_post_analytics",
      "import_media",
    ])
      expect(names).toContain(required);
    expect(names).toEqual(TOOLS.map((tool) => tool.name));
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.description).toBeTruthy();
    }
    const create = tools.find((tool) => tool.name === "create_post")!;
    expect(create.description).toContain("validate_post");
    expect(create.inputSchema.required).toEqual(
      expect.arrayContaining(["workspace_id", "accounts", "content"]),
    );
    expect(Object.keys(create.inputSchema.properties ?? {})).toContain("idempotency_key");
    const get = tools.find((tool) => tool.name === "get_post")!;
    expect(get.inputSchema.required).toEqual(["id"]);
    expect(get.inputSchema.properties?.id).toMatchObject({ type: "integer" });
    await client.close();
  });

  it("creates a post, then gets it, each answer the REST route's", async () => {
    const t = await createTenant();
    const client = await connect(t.key);
    const args = {
      workspace_id: t.workspace.id,
      accounts: [t.accounts[0]!.id],
      content: [{ text: "From an agent" }],
    };
    const validated = await client.callTool({ name: "validate_post", arguments: args });
    expect(validated.isError).toBeFalsy();
    expect(json(validated)).toMatchObject({ valid: true, errors: {} });
    const created = await client.callTool({ name: "create_post", arguments: args });
    expect(created.isError).toBeFalsy();
    const post = json(created);
    expect(post).toMatchObject({ status: "DRAFT", content: [{ text: "From an agent" }] });
    expect((created as Result)._meta).toMatchObject({ status: 201 });
    const got = await client.callTool({ name: "get_post", arguments: { id: post.id } });
    expect(got.isError).toBeFalsy();
    const rest = await call("GET", `/api/v1/posts/${post.id}`, { key: t.key });
    expect(json(got)).toEqual(rest.body);
    expect(json(got).content[0].text).toBe("From an agent");
    await client.close();
  });

  it("replays a create sent twice with the same idempotency_key", async () => {
    const t = await createTenant();
    const client = await connect(t.key);
    const args = {
      workspace_id: t.workspace.id,
      accounts: [t.accounts[0]!.id],
      content: [{ text: "Once" }],
      idempotency_key: "agent-run-1",
    };
    const first = json(await client.callTool({ name: "create_post", arguments: args }));
    const second = json(await client.callTool({ name: "create_post", arguments: args }));
    expect(second.id).toBe(first.id);
    const list = json(
      await client.callTool({ name: "list_posts", arguments: { workspace_id: t.workspace.id } }),
    );
    expect(list.data.map((p: { id: number }) => p.id)).toEqual([first.id]);
    await client.close();
  });

  it("refuses an argument create_post does not know (publishNow) with the route's 422 naming it", async () => {
    const t = await createTenant();
    const client = await connect(t.key);
    const args = {
      workspace_id: t.workspace.id,
      accounts: [t.accounts[0]!.id],
      content: [{ text: "Meant to go out now" }],
      publishNow: true,
    };
    const result = await client.callTool({ name: "create_post", arguments: args });
    expect(result.isError).toBe(true);
    expect(json(result)).toEqual({
      status: 422,
      message: "The publish now field is not allowed.",
      errors: { publishNow: ["The publish now field is not allowed."] },
    });
    const list = json(
      await client.callTool({ name: "list_posts", arguments: { workspace_id: t.workspace.id } }),
    );
    expect(list.data).toEqual([]);
    await client.close();
  });

  it("answers a validation refusal with isError and the REST 422 message", async () => {
    const t = await createTenant();
    const client = await connect(t.key);
    const args = { workspace_id: t.workspace.id, accounts: [], content: [{ text: "x" }] };
    const result = await client.callTool({ name: "create_post", arguments: args });
    expect(result.isError).toBe(true);
    const rest = await call("POST", "/api/v1/posts", { key: t.key, body: args });
    expect(rest.status).toBe(422);
    expect(json(result)).toEqual({ status: 422, ...rest.body });
    expect(json(result).message).toBe(rest.body.message);
    const missing = await client.callTool({ name: "get_post", arguments: { id: 999_999_999 } });
    expect(missing.isError).toBe(true);
    expect(json(missing)).toEqual({ status: 404, message: "Post not found." });
    await client.close();
  });

  it("refuses a tool whose route needs an ability the key lacks (403)", async () => {
    const t = await createTenant();
    const { key } = await createKey(t.user.id, ["workspaces"]);
    const client = await connect(key);
    const workspaces = await client.callTool({ name: "list_workspaces", arguments: {} });
    expect(workspaces.isError).toBeFalsy();
    expect(json(workspaces).data.map((w: { id: number }) => w.id)).toEqual([t.workspace.id]);
    const result = await client.callTool({ name: "list_posts", arguments: {} });
    expect(result.isError).toBe(true);
    expect(json(result)).toEqual({
      status: 403,
      message: "Forbidden - Insufficient permissions",
      ability: "posts",
    });
    await client.close();
  });

  it("keeps tenants apart: another user's post is a 404", async () => {
    const owner = await createTenant();
    const other = await createTenant();
    const post = (
      await call("POST", "/api/v1/posts", {
        key: owner.key,
        body: {
          workspace_id: owner.workspace.id,
          accounts: [owner.accounts[0]!.id],
          content: [{ text: "Mine" }],
        },
      })
    ).body;
    const client = await connect(other.key);
    const result = await client.callTool({ name: "get_post", arguments: { id: post.id } });
    expect(json(result)).toEqual({ status: 404, message: "Post not found." });
    await client.close();
  });

  it("is 401 without a key or with an unknown one", async () => {
    await expect(connect(null)).rejects.toMatchObject({
      code: 401,
      message: expect.stringContaining("Unauthenticated."),
    });
    await expect(connect("sk_live_not_a_key")).rejects.toMatchObject({ code: 401 });
    const bare = await exports.default.fetch(`${ORIGIN}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(bare.status).toBe(401);
    expect(await bare.json()).toEqual({ message: "Unauthenticated." });
    const t = await createTenant();
    const { key: expired } = await createKey(
      t.user.id,
      ["posts"],
      new Date(Date.now() - 60_000).toISOString(),
    );
    await expect(connect(expired)).rejects.toMatchObject({
      code: 401,
      message: expect.stringContaining("Expired"),
    });
  });

  it("answers an unknown tool with isError, and a missing id with the route's own refusal", async () => {
    const t = await createTenant();
    const client = await connect(t.key);
    const unknown = await client.callTool({ name: "publish_everything", arguments: {} });
    expect(unknown.isError).toBe(true);
    expect((unknown as Result).content[0]!.text).toContain("Unknown tool");
    const noId = await client.callTool({ name: "get_post", arguments: {} });
    expect(noId.isError).toBe(true);
    expect(json(noId).status).toBeGreaterThanOrEqual(400);
    expect(json(noId).status).toBeLessThan(500);
    await client.close();
  });

  it("counts each tool call in the REST rate window, not the MCP POST itself; 429 past 60", async () => {
    const t = await createTenant();
    const client = await connect(t.key);
    await client.listTools();
    // initialize, its notification and tools/list cost nothing: the window is whole.
    const first = await client.callTool({ name: "list_workspaces", arguments: {} });
    expect((first as Result)._meta).toMatchObject({ headers: { "X-RateLimit-Remaining": "59" } });
    for (let i = 1; i < 59; i++) await client.callTool({ name: "list_workspaces", arguments: {} });
    const rest = await call("GET", "/api/v1/workspaces", { key: t.key });
    expect(rest.status).toBe(200);
    expect(rest.headers.get("X-RateLimit-Remaining")).toBe("0");
    const refused = await client.callTool({ name: "list_workspaces", arguments: {} });
    expect(refused.isError).toBe(true);
    expect(json(refused)).toEqual({ status: 429, message: "Too Many Attempts." });
    expect((refused as Result)._meta).toMatchObject({ status: 429 });
    await client.close();
  });

  it("answers with Server-Timing and the window's headers on the MCP POST", async () => {
    const t = await createTenant();
    const body = {
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: "list_accounts", arguments: {} },
    };
    const res = await exports.default.fetch(`${ORIGIN}/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${t.key}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-06-18",
      },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("Server-Timing")).toMatch(/db;dur=/);
    expect(res.headers.get("X-RateLimit-Remaining")).toBe("59");
    const answer = (await res.json()) as { id: number; result: Result };
    expect(answer.id).toBe(7);
    expect(json(answer.result).data).toHaveLength(2);
  });

  it("refuses GET (no server-sent stream: the server is stateless)", async () => {
    const t = await createTenant();
    const res = await exports.default.fetch(`${ORIGIN}/mcp`, {
      headers: { authorization: `Bearer ${t.key}`, accept: "text/event-stream" },
    });
    expect(res.status).toBe(405);
  });
});

/** One raw POST /mcp: what a client outside the SDK sends (a batch, a bad body, a header). */
async function rawMcp(key: string | null, body: string, headers: Record<string, string> = {}) {
  const res = await exports.default.fetch(`${ORIGIN}/mcp`, {
    method: "POST",
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-06-18",
      ...headers,
    },
    body,
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

const remaining = async (key: string) =>
  (await call("GET", "/api/v1/me", { key })).headers.get("X-RateLimit-Remaining");

describe("/mcp: refusals of the transport", () => {
  it("refuses a JSON-RPC batch (any length) with 400 before anything is dispatched", async () => {
    const t = await createTenant();
    const calls = Array.from({ length: 4000 }, (_, i) => ({
      jsonrpc: "2.0",
      id: i,
      method: i % 2 ? "tools/list" : "tools/call",
      params: i % 2 ? {} : { name: "list_workspaces", arguments: {} },
    }));
    const started = Date.now();
    const res = await rawMcp(t.key, JSON.stringify(calls));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(res.status).toBe(400);
    expect(res.text.length).toBeLessThan(500);
    const answer = JSON.parse(res.text);
    expect(answer).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
    expect(answer.error.message).toContain("batches are not supported");
    for (const body of ["[]", JSON.stringify([{ jsonrpc: "2.0", id: 1, method: "ping" }])])
      expect((await rawMcp(t.key, body)).status).toBe(400);
    // None of the batch's tool calls ran: the REST call is the window's first.
    expect(await remaining(t.key)).toBe("59");
  });

  it("answers a parse error and an invalid request with a short fixed message (-32700, -32600)", async () => {
    const t = await createTenant();
    const parse = await rawMcp(t.key, '{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(parse.status).toBe(400);
    expect(JSON.parse(parse.text)).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32700, message: "Parse error: the body is not JSON." },
    });
    for (const body of [
      { jsonrpc: "2.0", id: 1 },
      { jsonrpc: "1.0", id: 1, method: "tools/list" },
      { id: { a: 1 }, method: "tools/list", jsonrpc: "2.0" },
      "tools/list",
    ]) {
      const invalid = await rawMcp(t.key, JSON.stringify(body));
      expect(invalid.status).toBe(400);
      expect(JSON.parse(invalid.text)).toEqual({
        jsonrpc: "2.0",
        id: null,
        error: { code: -32600, message: "Invalid Request: not a JSON-RPC 2.0 message." },
      });
    }
  });

  it("answers a request's malformed params with -32602 and a fixed message, not the parser's issues", async () => {
    const t = await createTenant();
    for (const params of [{}, { name: "get_post", arguments: "x" }]) {
      const res = await rawMcp(
        t.key,
        JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/call", params }),
      );
      expect(JSON.parse(res.text)).toEqual({
        jsonrpc: "2.0",
        id: 9,
        error: { code: -32602, message: "Invalid params for tools/call." },
      });
    }
  });

  it("answers an unsupported MCP-Protocol-Version with 400 and a JSON-RPC error", async () => {
    const t = await createTenant();
    const res = await rawMcp(t.key, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }), {
      "mcp-protocol-version": "1999-01-01",
    });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
    expect(JSON.parse(res.text).error.message).toContain("2025-06-18");
  });

  it("challenges a 401 with WWW-Authenticate: Bearer (RFC 6750), the body unchanged", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    const missing = await rawMcp(null, body);
    expect(missing.status).toBe(401);
    expect(missing.headers.get("WWW-Authenticate")).toBe('Bearer realm="api"');
    expect(JSON.parse(missing.text)).toEqual({ message: "Unauthenticated." });
    const invalid = await rawMcp("sk_live_not_a_key", body);
    expect(invalid.status).toBe(401);
    expect(invalid.headers.get("WWW-Authenticate")).toBe('Bearer realm="api", error="invalid_token"');
    const rest = await call("GET", "/api/v1/me", { key: "sk_live_not_a_key" });
    expect(rest.status).toBe(401);
    expect(rest.headers.get("WWW-Authenticate")).toBe('Bearer realm="api", error="invalid_token"');
    expect(rest.body).toEqual({ message: "Unauthenticated." });
    expect((await call("GET", "/api/v1/me")).headers.get("WWW-Authenticate")).toBe('Bearer realm="api"');
  });
});

describe("/mcp: malformed arguments are the route's 422", () => {
  it("refuses a lone surrogate, a non-string or a missing id, never a -32603", async () => {
    const t = await createTenant();
    const client = await connect(t.key);
    for (const id of ["\uD800", { a: 1 }, [1], true, "1/../2"]) {
      const result = await client.callTool({ name: "get_post", arguments: { id } });
      expect(result.isError).toBe(true);
      expect(json(result)).toMatchObject({ status: 422, errors: { id: [expect.any(String)] } });
    }
    const missing = await client.callTool({ name: "get_post", arguments: {} });
    expect(json(missing)).toEqual({
      status: 422,
      message: "The id field is required.",
      errors: { id: ["The id field is required."] },
    });
    await client.close();
  });

  it("refuses a malformed idempotency_key (a newline, a lone surrogate, a number) as REST does", async () => {
    const t = await createTenant();
    const client = await connect(t.key);
    const args = { workspace_id: t.workspace.id, accounts: [t.accounts[0]!.id], content: [{ text: "k" }] };
    const rest = await call("POST", "/api/v1/posts", {
      key: t.key,
      body: args,
      headers: { "Idempotency-Key": "a\tb" },
    });
    expect(rest.status).toBe(422);
    for (const key of ["a\nb", "\uD800", 42, ""]) {
      const result = await client.callTool({
        name: "create_post",
        arguments: { ...args, idempotency_key: key },
      });
      expect(result.isError).toBe(true);
      expect(json(result)).toEqual({ status: 422, ...rest.body });
    }
    const update = await client.callTool({
      name: "delete_post",
      arguments: { id: 1, idempotency_key: "a\r\n" },
    });
    expect(json(update)).toEqual({ status: 422, ...rest.body });
    const list = json(
      await client.callTool({ name: "list_posts", arguments: { workspace_id: t.workspace.id } }),
    );
    expect(list.data).toEqual([]);
    await client.close();
  });

  it("refuses unknown arguments of tools without a body, and idempotency_key on reads", async () => {
    const t = await createTenant();
    const client = await connect(t.key);
    const cases: [string, Record<string, unknown>, string][] = [
      ["retry_post", { id: 1, force: true }, "force"],
      ["delete_post", { id: 1, cascade: true }, "cascade"],
      ["list_workspaces", { verbose: true }, "verbose"],
      ["get_me", { idempotency_key: "k" }, "idempotency_key"],
      ["list_posts", { idempotency_key: "k" }, "idempotency_key"],
    ];
    for (const [name, args, field] of cases) {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, name).toBe(true);
      expect(json(result), name).toMatchObject({
        status: 422,
        errors: { [field]: [`The ${field.replaceAll("_", " ")} field is not allowed.`] },
      });
    }
    const { tools } = await client.listTools();
    for (const tool of tools) expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
    // Without a body, `idempotency_key` stays optional: a delete without one deletes.
    const post = await createPost(t);
    const deleted = await client.callTool({ name: "delete_post", arguments: { id: post.id } });
    expect(deleted.isError, JSON.stringify(deleted.content)).toBeFalsy();
    expect((await call("GET", `/api/v1/posts/${post.id}`, { key: t.key })).status).toBe(404);
    await client.close();
  });

  it("replays a create whose arguments come in another key order", async () => {
    const t = await createTenant();
    const client = await connect(t.key);
    const first = await client.callTool({
      name: "create_post",
      arguments: {
        workspace_id: t.workspace.id,
        accounts: [t.accounts[0]!.id],
        content: [{ text: "Ordered", media: [] }],
        idempotency_key: "order-1",
      },
    });
    const second = await client.callTool({
      name: "create_post",
      arguments: {
        idempotency_key: "order-1",
        content: [{ media: [], text: "Ordered" }],
        accounts: [t.accounts[0]!.id],
        workspace_id: t.workspace.id,
      },
    });
    expect(second.isError).toBeFalsy();
    expect(json(second).id).toBe(json(first).id);
    expect((second as Result)._meta).toMatchObject({ status: 201 });
    await client.close();
  });
});
