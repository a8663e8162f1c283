// A tool call as the REST request its route answers, and that answer as the tool's result. The request
// carries the caller's own key, so the gate, the ability, the tenancy, the validation, the rate window
// and the Idempotency-Key are the route's own; the result is the route's JSON, or `isError` with it.
//
// What cannot reach a route as sent is refused here with the 422 the route would give, never thrown: a
// missing path id, and the unknown arguments of a tool whose route has neither a body nor a query to
// refuse them (a malformed idempotency_key, which `new Headers` would throw on, is index.ts's, by the
// idempotency middleware's own rule). These refusals are not counted in the rate window: they do
// nothing and read nothing.
import { z } from "zod";
import { type ApiError, invalidField, invalidInput } from "../http/errors";
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

/** A value as URL text; a lone surrogate (which `encodeURIComponent` throws on) becomes U+FFFD. */
const asText = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value)).toWellFormed();

/**
 * The route's request: ids into the path, the rest into the query (GET, DELETE) or the JSON body; or
 * the route's 422 for what cannot be sent (see the header comment).
 */
export function toolRequest(
  spec: ToolSpec,
  args: Arguments,
  origin: string,
  authorization: string,
): Request | ApiError {
  // A route with a body or a query refuses unknown fields itself (strict schemas); one with neither
  // would not look at them, so they are refused here, in the same words.
  if (!spec.body && !spec.query) {
    // Its path ids, and on a write an optional `idempotency_key`.
    const known = z.strictObject(
      Object.fromEntries([
        ...pathParams(spec).map((name) => [name, z.unknown()]),
        ...(spec.writes ? [[IDEMPOTENCY_ARGUMENT, z.unknown().optional()]] : []),
      ]),
    );
    const checked = known.safeParse(args);
    if (!checked.success) return invalidInput(checked.error, args);
  }
  const rest: Arguments = { ...args };
  let path: string = spec.path;
  for (const name of pathParams(spec)) {
    const value = rest[name];
    delete rest[name];
    if (value === undefined || value === null) return invalidField(name, `The ${name} field is required.`);
    // A malformed id (text, an object) reaches the route as such and gets the route's 422.
    path = path.replace(`{${name}}`, encodeURIComponent(asText(value)));
  }
  const headers = new Headers({ authorization, accept: "application/json" });
  if (spec.writes) {
    const key = rest[IDEMPOTENCY_ARGUMENT];
    delete rest[IDEMPOTENCY_ARGUMENT];
    // index.ts refused a malformed one: this is printable ASCII.
    if (typeof key === "string") headers.set("Idempotency-Key", key);
  }
  const url = new URL(path, origin);
  if (spec.method === "GET" || spec.method === "DELETE") {
    for (const [name, value] of Object.entries(rest))
      if (value !== undefined && value !== null) url.searchParams.set(name, asText(value));
    return new Request(url, { method: spec.method, headers });
  }
  // A route without a body (retry, sync, a webhook test) gets none (its arguments were checked above).
  if (!spec.body) return new Request(url, { method: spec.method, headers });
  headers.set("content-type", "application/json");
  return new Request(url, { method: spec.method, headers, body: JSON.stringify({ ...rest, ...spec.sends }) });
}

export type ToolResult = {
  content: { type: "text"; text: string }[];
  isError?: boolean;
  _meta: { status: number; headers: Record<string, string> };
};

/** A refusal made here, as the tool's result the route's own refusal would be. */
export const refusalResult = (error: ApiError) =>
  toolResult(Response.json(error.body, { status: error.status, headers: error.headers }));

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
