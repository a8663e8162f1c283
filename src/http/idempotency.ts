// The `Idempotency-Key` header of the routes that create something (docs/guide.md, "Idempotency keys"):
// a client that retries a create after a timeout gets the first answer again instead of a duplicate.
// The records live in the user's Coordinator (src/coordinator/idempotency.ts); this middleware runs
// after the gate admitted the request and before the route's validators and handler. Requests without
// the header pass untouched: only those that carry it pay for the two Coordinator calls (claim, then
// store the answer).
//
// The fingerprint a key is bound to: SHA-256 over the method, the path and the body. A JSON (or any
// non-multipart) body is hashed as sent, with its Content-Type. A multipart body is hashed part by
// part (name, filename, bytes), not as raw bytes: clients draw a new random boundary for every attempt,
// so the raw bytes of a retry never match. At most FINGERPRINT_BYTES of a body are read before the
// handler runs (that much is held in memory until the handler reads it); past that, a body counts by
// what was read, so two uploads with the same fields whose files agree on their first 4 MiB are the
// same request. The body is read from a clone: the handler still streams the original.
import { createMiddleware } from "hono/factory";
import { type BeginResult, userCoordinator } from "../coordinator/names";
import { sha256Hex } from "../lib/crypto";
import { toHex } from "../lib/encoding";
import { formBoundary, MultipartError, readMultipart } from "../lib/multipart";
import type { ApiEnv } from "./env";
import { conflict, invalidField } from "./errors";

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
export const REPLAYED_HEADER = "Idempotent-Replayed";
export const FINGERPRINT_BYTES = 4 * 1024 * 1024;
/** An answer longer than this (characters) is not kept, so records stay small: the key is released. */
export const MAX_STORED_BODY = 512 * 1024;

/** 1 to 255 printable ASCII characters. */
const KEY = /^[\x20-\x7e]{1,255}$/;

/**
 * Answers kept: successes and client errors, which a repeat would get again. Not kept: 409 and 429
 * (a state or a rate that may change), 5xx (the request may be retried as new).
 */
const keeps = (status: number) => status < 500 && status !== 409 && status !== 429;

/** Headers that describe this request, not the answer: the outer middleware sets them on a replay too. */
const PER_REQUEST = /^(server-timing|x-d1-bookmark|x-ratelimit-.*|retry-after|set-cookie|content-length)$/i;

/** Passes the first `limit` bytes of `body` on; `cut` says whether there was more. */
function bounded(body: ReadableStream<Uint8Array>, limit: number) {
  const reader = body.getReader();
  const state = { seen: 0, cut: false };
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) return controller.close();
      const room = limit - state.seen;
      if (value.byteLength <= room) {
        state.seen += value.byteLength;
        return controller.enqueue(value);
      }
      state.cut = true;
      if (room > 0) controller.enqueue(value.subarray(0, room));
      state.seen = limit;
      await reader.cancel();
      controller.close();
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return { stream, state };
}

/** SHA-256 and length of a stream; a multipart part cut short counts by the bytes read. */
async function digestOf(stream: ReadableStream<Uint8Array>): Promise<[digest: string, bytes: number]> {
  const sink = new crypto.DigestStream("SHA-256");
  const writer = sink.getWriter();
  const reader = stream.getReader();
  let bytes = 0;
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      bytes += next.value.byteLength;
      await writer.write(next.value);
    }
  } catch (error) {
    // The part ended where the bounded body was cut (or the body is malformed): what was read counts.
    if (!(error instanceof MultipartError)) throw error;
  }
  await writer.close();
  return [toHex(await sink.digest), bytes];
}

async function multipartParts(body: ReadableStream<Uint8Array>, boundary: string): Promise<unknown[]> {
  const { stream, state } = bounded(body, FINGERPRINT_BYTES);
  const parts: unknown[] = [];
  try {
    for await (const part of readMultipart(stream, boundary))
      parts.push([part.name, part.filename, ...(await digestOf(part.body))]);
  } catch (error) {
    if (!(error instanceof MultipartError)) throw error;
    parts.push(state.cut ? "cut" : `malformed: ${error.message}`);
  }
  return parts;
}

/** What a key is bound to (see the header comment). */
export async function requestFingerprint(request: Request, path: string): Promise<string> {
  const contentType = request.headers.get("content-type") ?? "";
  const body = request.clone().body;
  const boundary = formBoundary(contentType);
  let content: unknown[] = [contentType];
  if (body && boundary) content = ["multipart/form-data", ...(await multipartParts(body, boundary))];
  else if (body) {
    const { stream, state } = bounded(body, FINGERPRINT_BYTES);
    content = [contentType, ...(await digestOf(stream)), state.cut];
  }
  return sha256Hex(JSON.stringify([request.method, path, ...content]));
}

/** The header as an OpenAPI parameter (apiRoute adds it to `idempotent` routes). */
export const IDEMPOTENCY_PARAMETER = {
  name: IDEMPOTENCY_HEADER,
  in: "header",
  required: false,
  description:
    "Makes a retry safe: the first answer to this key (successes and client errors other than 409 and 429) is kept for 24 hours and replayed, with `Idempotent-Replayed: true`, to a repeat with the same key and the same request. The same key with another request is a 422; a repeat while the first is still running is a 409 with `Retry-After: 1`. Keys are per user; 1 to 255 printable ASCII characters.",
  schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x20-\\x7E]+$" },
} as const;

const IDEMPOTENCY_NOTE = `Honours an \`${IDEMPOTENCY_HEADER}\` header: a repeat with the same key and the same request gets the first answer again (\`${REPLAYED_HEADER}: true\`) instead of acting twice; 409 while the first is still running, 422 when the key was used for a different request.`;

type Documented = { description?: string; parameters?: unknown[]; responses: Record<string, object> };

/** An `idempotent` route's documentation: the header, the note, and the replay header on successes. */
export function documentIdempotency<R extends Documented>(route: R): R {
  const responses: Record<string, object> = {};
  for (const [status, response] of Object.entries(route.responses)) {
    const headers = (response as { headers?: object }).headers;
    responses[status] = status.startsWith("2")
      ? {
          ...response,
          headers: {
            ...headers,
            [REPLAYED_HEADER]: {
              description: `\`true\` on an answer replayed for a repeated \`${IDEMPOTENCY_HEADER}\`.`,
              schema: { type: "string", enum: ["true"] },
            },
          },
        }
      : response;
  }
  return {
    ...route,
    description: route.description ? `${route.description}\n\n${IDEMPOTENCY_NOTE}` : IDEMPOTENCY_NOTE,
    parameters: [...(route.parameters ?? []), IDEMPOTENCY_PARAMETER],
    responses,
  };
}

/** The middleware of every route that creates something (apiRoute's `idempotent: true`). */
export const idempotency = createMiddleware<ApiEnv>(async (c, next) => {
  const key = c.req.header(IDEMPOTENCY_HEADER);
  if (key === undefined) return next();
  if (!KEY.test(key))
    throw invalidField(
      IDEMPOTENCY_HEADER,
      `The ${IDEMPOTENCY_HEADER} header must be 1 to 255 printable ASCII characters.`,
    );
  // Refused requests (401, 403, 429) neither claim nor replay a key.
  await c.var.admitted();
  const { pathname, search } = new URL(c.req.url);
  const fingerprint = await requestFingerprint(c.req.raw, `${pathname}${search}`);
  const coordinator = c.env.COORDINATOR.getByName(userCoordinator(c.var.principal.userId));
  const request = `${c.req.method} ${pathname}`;
  const begun = await c.var.meter.gate<BeginResult>(async () => {
    // The RPC stub types a union answer as a union of promises; awaited, it is the union.
    const answer: BeginResult = await coordinator.beginIdempotent({ key, fingerprint, request });
    return answer;
  });
  if (begun.kind === "mismatch")
    throw invalidField(
      IDEMPOTENCY_HEADER,
      `This ${IDEMPOTENCY_HEADER} was already used for a different request; send a new key for a new request.`,
    );
  if (begun.kind === "in_flight")
    throw conflict(
      `A request with this ${IDEMPOTENCY_HEADER} is still being processed; retry after it completes.`,
      { "Retry-After": "1" },
    );
  if (begun.kind === "replay")
    // A 204 has no body, and a Response refuses one.
    return new Response(begun.status === 204 ? null : begun.body, {
      status: begun.status,
      headers: { ...begun.headers, [REPLAYED_HEADER]: "true" },
    });

  const { token } = begun;
  // A release that fails leaves the record in flight until its lease ends.
  const release = () =>
    c.var.meter.gate(() => coordinator.releaseIdempotent(key, token)).catch(() => undefined);
  try {
    await next();
  } catch (error) {
    await release();
    throw error;
  }
  // Errors thrown by the handler arrive here rendered (Hono's compose), with their status.
  const body = keeps(c.res.status) ? await c.res.clone().text() : null;
  if (body === null || body.length > MAX_STORED_BODY) {
    await release();
    return;
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of c.res.headers) if (!PER_REQUEST.test(name)) headers[name] = value;
  try {
    await c.var.meter.gate(() =>
      coordinator.finishIdempotent({ key, token, status: c.res.status, body, headers }),
    );
  } catch (error) {
    // The record stays in flight until its lease ends; the answer still goes to the client.
    console.error("idempotency: storing the answer failed", request, error);
  }
});
