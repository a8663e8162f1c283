// POST /mcp: the API as a Model Context Protocol server (Streamable HTTP, stateless: a server and a
// transport per request, JSON answers, no session). The official SDK's `Server` speaks the protocol
// and Hono's MCP transport carries it; this file only lists the tools (tools.ts, schema.ts) and answers
// each call by the REST route it names, in-process, with the caller's own key (call.ts).
//
// Counting: the POST itself is authenticated (the key, read from D1: src/http/gate.ts keyCheck) but not
// counted; each tool call is one request of the caller's rate window, as the REST call it makes is.
// So initialize and tools/list are free, and an agent's 60 calls a minute are the REST API's 60.
//
// One message per POST: MCP 2025-06-18 has no JSON-RPC batches, and a batch would be work the rate
// window never sees (thousands of calls in one request body), so an array is refused with a 400 before
// the SDK reads it. A free message is therefore bounded: one key lookup and one small answer (the tool
// list is built once per isolate), in a body capped by jsonBodyLimit.
import { StreamableHTTPTransport } from "@hono/mcp";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  isJSONRPCRequest,
  JSONRPCMessageSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/sdk/types.js";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { jsonBodyLimit } from "../http/body-limit";
import { ApiError } from "../http/errors";
import { type KeyEnv, keyCheck } from "../http/gate";
import { isIdempotencyKey, malformedIdempotencyKey } from "../http/idempotency";
import { createRouter } from "../http/router";
import { refusalResult, toolRequest, toolResult } from "./call";
import { IDEMPOTENCY_ARGUMENT, toolInputSchema } from "./schema";
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
    const args = request.params.arguments ?? {};
    const key = spec.writes ? args[IDEMPOTENCY_ARGUMENT] : undefined;
    // The idempotency middleware's 422, for a key that could not even be sent as a header.
    if (key !== undefined && !isIdempotencyKey(key)) return refusalResult(malformedIdempotencyKey());
    const routed = toolRequest(spec, args, origin, authorization);
    if (routed instanceof ApiError) return refusalResult(routed);
    const response = await dispatch(routed, c);
    for (const name of RATE_HEADERS) {
      const value = response.headers.get(name);
      if (value !== null) rate.set(name, value);
    }
    return toolResult(response);
  });
  return server;
}

/** The requests this server answers, by method, as the SDK checks them. */
const PARAMS = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  "tools/list": ListToolsRequestSchema,
  "tools/call": CallToolRequestSchema,
};

/** A JSON-RPC error with no id (the request's could not be read), as a 400. */
const rpcRefusal = (code: ErrorCode, message: string) =>
  Response.json({ jsonrpc: "2.0", id: null, error: { code, message } }, { status: 400 });

/**
 * The one JSON-RPC message of the body, or the refusal of a body that is not one: not JSON (-32700), a
 * batch, or not a JSON-RPC 2.0 message (-32600), each with a short fixed message (never the parser's
 * issues). An unsupported `MCP-Protocol-Version` is a 400 as the specification says ("Protocol Version
 * Header"); the transport would answer 404. A body that is not declared JSON is left to the transport
 * (415).
 */
async function readMessage(c: Context<KeyEnv>): Promise<{ message?: unknown; refusal?: Response }> {
  if (!c.req.header("content-type")?.includes("application/json")) return {};
  const version = c.req.header("mcp-protocol-version");
  if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version))
    return {
      refusal: rpcRefusal(
        ErrorCode.InvalidRequest,
        `Bad Request: unsupported MCP-Protocol-Version (supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")}).`,
      ),
    };
  let body: unknown;
  try {
    body = JSON.parse(await c.req.text());
  } catch {
    return { refusal: rpcRefusal(ErrorCode.ParseError, "Parse error: the body is not JSON.") };
  }
  if (Array.isArray(body))
    return {
      refusal: rpcRefusal(
        ErrorCode.InvalidRequest,
        "Invalid Request: JSON-RPC batches are not supported (MCP 2025-06-18); send one message per POST.",
      ),
    };
  if (!JSONRPCMessageSchema.safeParse(body).success)
    return { refusal: rpcRefusal(ErrorCode.InvalidRequest, "Invalid Request: not a JSON-RPC 2.0 message.") };
  // The SDK would answer a request's malformed params with -32603 and the parser's issues as its message.
  if (isJSONRPCRequest(body) && Object.hasOwn(PARAMS, body.method)) {
    const schema = PARAMS[body.method as keyof typeof PARAMS];
    if (!schema.safeParse(body).success)
      return {
        refusal: Response.json({
          jsonrpc: "2.0",
          id: body.id,
          error: { code: ErrorCode.InvalidParams, message: `Invalid params for ${body.method}.` },
        }),
      };
  }
  return { message: body };
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
      const { message, refusal } = await readMessage(c);
      if (refusal) return refusal;
      const rate = new Headers();
      const server = serverFor(c, dispatch, rate);
      const transport = new StreamableHTTPTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      await server.connect(transport);
      let response: Response;
      try {
        response = (await transport.handleRequest(c, message)) ?? c.body(null, 202);
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
