// POST /mcp: the API as a Model Context Protocol server (Streamable HTTP, stateless: a server and a
// transport per request, JSON answers, no session). The official SDK's `Server` speaks the protocol
// and Hono's MCP transport carries it; this file only lists the tools (tools.ts, schema.ts) and answers
// each call by the REST route it names, in-process, with the caller's own key (call.ts).
//
// Counting: the POST itself is authenticated (the key, read from D1: src/http/gate.ts keyCheck) but not
// counted; each tool call is one request of the caller's rate window, as the REST call it makes is.
// So initialize and tools/list are free, and an agent's 60 calls a minute are the REST API's 60.
import { StreamableHTTPTransport } from "@hono/mcp";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { jsonBodyLimit } from "../http/body-limit";
import { ApiError } from "../http/errors";
import { type KeyEnv, keyCheck } from "../http/gate";
import { createRouter } from "../http/router";
import { toolRequest, toolResult } from "./call";
import { toolInputSchema } from "./schema";
import { TOOLS } from "./tools";

/** How a tool call reaches its route: the worker's own fetch, in-process (src/app.ts passes it). */
export type Dispatch = (request: Request, c: Context<KeyEnv>) => Promise<Response>;

export const MCP_SERVER = { name: "social-publishing-api", version: "0.1.0" } as const;

const INSTRUCTIONS =
  "A social publishing API: workspaces hold connected accounts (X, TikTok, YouTube, Pinterest, Instagram, Facebook, LinkedIn, Threads); posts target accounts and are drafted, scheduled or published now. Start with list_workspaces (it names each workspace's accounts), validate_post before create_post, then get_post to follow its status. A refusal is isError with the REST status and message.";

const LISTED = TOOLS.map((spec) => ({
  name: spec.name,
  title: spec.title,
  description: spec.description,
  inputSchema: toolInputSchema(spec),
  annotations: {
    title: spec.title,
    readOnlyHint: spec.method === "GET" || spec.name === "validate_post",
    destructiveHint: spec.method === "DELETE",
    idempotentHint: spec.method !== "POST" || spec.name === "validate_post",
    openWorldHint: spec.name === "import_media" || spec.name === "test_webhook",
  },
}));
const BY_NAME = new Map(TOOLS.map((spec) => [spec.name, spec]));

/** The rate headers of a tool call's answer, carried by the MCP answer (the last call's, when several). */
const RATE_HEADERS = ["X-RateLimit-Limit", "X-RateLimit-Remaining"];

function serverFor(c: Context<KeyEnv>, dispatch: Dispatch, rate: Headers) {
  const server = new Server(MCP_SERVER, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: LISTED }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const spec = BY_NAME.get(request.params.name);
    if (!spec)
      return {
        isError: true,
        content: [{ type: "text", text: `Unknown tool: ${request.params.name}. tools/list names them.` }],
      };
    const origin = new URL(c.req.url).origin;
    const authorization = c.req.header("authorization") ?? "";
    const response = await dispatch(
      toolRequest(spec, request.params.arguments ?? {}, origin, authorization),
      c,
    );
    for (const name of RATE_HEADERS) {
      const value = response.headers.get(name);
      if (value !== null) rate.set(name, value);
    }
    return toolResult(response);
  });
  return server;
}

const notAllowed = () =>
  new ApiError(
    405,
    { message: "The MCP endpoint is stateless: send JSON-RPC with POST." },
    { headers: { Allow: "POST" } },
  );

export const mcpRouter = (dispatch: Dispatch) =>
  createRouter<KeyEnv>()
    .use("/", keyCheck)
    .post("/", jsonBodyLimit, async (c) => {
      const rate = new Headers();
      const server = serverFor(c, dispatch, rate);
      const transport = new StreamableHTTPTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      await server.connect(transport);
      let response: Response;
      try {
        response = (await transport.handleRequest(c)) ?? c.body(null, 202);
      } catch (error) {
        // The transport's refusals (406, 415, a parse error) carry their JSON-RPC body: answered as is.
        if (error instanceof HTTPException && !(error instanceof ApiError)) return error.getResponse();
        throw error;
      } finally {
        await server.close();
      }
      for (const [name, value] of rate) response.headers.set(name, value);
      return response;
    })
    .on(["GET", "DELETE", "PUT", "PATCH"], "/", () => {
      throw notAllowed();
    });
