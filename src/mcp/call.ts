// A tool call as the REST request its route answers, and that answer as the tool's result. The request
// carries the caller's own key, so the gate, the ability, the tenancy, the validation, the rate window
// and the Idempotency-Key are the route's own; the result is the route's JSON, or `isError` with it.
import { IDEMPOTENCY_ARGUMENT } from "./schema";
import { pathParams, type ToolSpec } from "./tools";

type Arguments = Record<string, unknown>;

/** The headers of a route's answer a tool result repeats in `_meta`. */
const REPORTED = [
  "Server-Timing",
  "X-RateLimit-Limit",
  "X-RateLimit-Remaining",
  "X-D1-Bookmark",
  "Retry-After",
];

const asText = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

/** The route's request: ids into the path, the rest into the query (GET, DELETE) or the JSON body. */
export function toolRequest(spec: ToolSpec, args: Arguments, origin: string, authorization: string): Request {
  const rest: Arguments = { ...args };
  let path: string = spec.path;
  for (const name of pathParams(spec)) {
    const value = rest[name];
    delete rest[name];
    // A missing or malformed id reaches the route as such and gets the route's 422 (or 404).
    path = path.replace(`{${name}}`, encodeURIComponent(value === undefined ? "" : asText(value)));
  }
  const key = rest[IDEMPOTENCY_ARGUMENT];
  delete rest[IDEMPOTENCY_ARGUMENT];
  const url = new URL(path, origin);
  const headers = new Headers({ authorization, accept: "application/json" });
  if (spec.writes && key !== undefined) headers.set("Idempotency-Key", asText(key));
  if (spec.method === "GET" || spec.method === "DELETE") {
    for (const [name, value] of Object.entries(rest))
      if (value !== undefined && value !== null) url.searchParams.set(name, asText(value));
    return new Request(url, { method: spec.method, headers });
  }
  // A route without a body (retry, sync, a webhook test) gets none; its other arguments are ignored.
  if (!spec.body) return new Request(url, { method: spec.method, headers });
  headers.set("content-type", "application/json");
  return new Request(url, { method: spec.method, headers, body: JSON.stringify(rest) });
}

export type ToolResult = {
  content: { type: "text"; text: string }[];
  isError?: boolean;
  _meta: { status: number; headers: Record<string, string> };
};

/** The route's answer as the tool's result: its JSON as text; a refusal `isError`, with its status. */
export async function toolResult(response: Response): Promise<ToolResult> {
  const text = await response.text();
  const headers = Object.fromEntries(
    REPORTED.flatMap((name) => {
      const value = response.headers.get(name);
      return value === null ? [] : [[name, value]];
    }),
  );
  const _meta = { status: response.status, headers };
  if (response.ok) return { content: [{ type: "text", text }], _meta };
  // The REST body ({message, errors?}) with the status in front of it, so an agent reads both at once.
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON (should not happen on /api/v1): the text as it came.
  }
  const refusal = typeof body === "object" && body !== null ? body : { message: text };
  return {
    content: [{ type: "text", text: JSON.stringify({ status: response.status, ...refusal }) }],
    isError: true,
    _meta,
  };
}
