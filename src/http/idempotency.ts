// The `Idempotency-Key` header of the routes that create something (docs/guide.md, "Idempotency keys"):
// a client that retries a create after a timeout gets the first answer again instead of a duplicate.
// The records live in the user's Coordinator (src/coordinator/idempotency.ts). Requests without the
// header pass untouched: only those that carry it pay, one Coordinator call (the answer kept).
//
// The claim rides on the gate's admission call (src/http/gate.ts): the gate recognises a route with this
// middleware (claimFor), fingerprints the request and sends the claim with the admission, and the
// route's reads overlap it as they overlap any admission. This middleware takes the claim over; from
// then on `admitted()` (which every write and every other effect waits for) also waits for the claim to
// proceed, so a repeat does nothing but read. After the handler, the middleware answers the replay, 409
// or 422 in place of whatever the handler answered, or keeps the first request's answer: sealed
// (AES-GCM under a key derived from ENCRYPTION_KEY for this purpose, bound to the user and the key),
// so no answer's secret is ever stored in plain text. One too large to keep is recorded without it.
//
// The fingerprint a key is bound to: SHA-256 over the method, the path and the body. A JSON body is
// hashed as canonical JSON (keys sorted at every depth, no whitespace), so the same body with its keys
// in another order, or spaced otherwise, is the same request (an MCP client's arguments, a serializer
// that does not keep key order); a body that does not parse is hashed as sent. Any other non-multipart
// body is hashed as sent, with its Content-Type. A multipart body is hashed part by
// part (name, filename, bytes), not as raw bytes: clients draw a new random boundary for every attempt,
// so the raw bytes of a retry never match. At most FINGERPRINT_BYTES of a body are read before the
// handler runs (that much is held in memory until the handler reads it); past that, a body counts by
// what was read, so two uploads with the same fields whose files agree on their first 4 MiB are the
// same request. The body is read from a clone: the handler still streams the original.
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { matchedRoutes } from "hono/route";
import type { BeginIdempotent } from "../coordinator/idempotency";
import { type BeginResult, userCoordinator } from "../coordinator/names";
import { openBytes, sealBytes, sha256Hex } from "../lib/crypto";
import { toHex, utf8 } from "../lib/encoding";
import { formBoundary, MultipartError, readMultipart } from "../lib/multipart";
import type { ApiEnv, HeldClaim } from "./env";
import { conflict, invalidField } from "./errors";

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
export const REPLAYED_HEADER = "Idempotent-Replayed";
export const FINGERPRINT_BYTES = 4 * 1024 * 1024;
/**
 * An answer longer than this (characters, body and headers) is not kept, so records stay small (and
 * within a Durable Object's 2 MB per value): its record says only that the request ran, and a repeat
 * gets a 409 instead of running again.
 */
export const MAX_STORED_BODY = 512 * 1024;
/** The HKDF purpose of the key that seals kept answers. */
const SEAL_PURPOSE = "idempotency-answers-v1";

/** 1 to 255 printable ASCII characters. */
const KEY = /^[\x20-\x7e]{1,255}$/;

/** Whether a value is a well-formed key (the MCP tools check their `idempotency_key` by this too). */
export const isIdempotencyKey = (value: unknown): value is string =>
  typeof value === "string" && KEY.test(value);

/** The 422 of a malformed key. */
export const malformedIdempotencyKey = () =>
  invalidField(
    IDEMPOTENCY_HEADER,
    `The ${IDEMPOTENCY_HEADER} header must be 1 to 255 printable ASCII characters.`,
  );

/**
 * Answers kept: successes and client errors, which a repeat would get again. Not kept: 401 and 403 (a
 * refusal before the operation: the key stays free), 409 and 429 (a state or a rate that may change),
 * 5xx (the request may be retried as new).
 */
const keeps = (status: number) => status < 500 && ![401, 403, 409, 429].includes(status);

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

/**
 * A JSON value written with its objects' keys sorted at every depth: the same value however its keys
 * were ordered. Strings go through JSON.stringify (a `__proto__` key is just text here).
 */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`;
}

/**
 * A JSON body's digest: of its canonical form, or of its bytes as sent when it is cut short, does not
 * parse or nests too deep to write again.
 */
async function jsonDigest(body: ReadableStream<Uint8Array>): Promise<unknown[]> {
  const { stream, state } = bounded(body, FINGERPRINT_BYTES);
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  if (!state.cut)
    try {
      return ["canonical", await sha256Hex(canonicalJson(JSON.parse(new TextDecoder().decode(bytes))))];
    } catch {
      // Not JSON after all (the route answers its 400): hashed as sent, below.
    }
  return [toHex(await crypto.subtle.digest("SHA-256", bytes)), bytes.byteLength, state.cut];
}

const isJson = (contentType: string) => /^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(contentType);

/** What a key is bound to (see the header comment). */
export async function requestFingerprint(request: Request, path: string): Promise<string> {
  const contentType = request.headers.get("content-type") ?? "";
  const body = request.clone().body;
  const boundary = formBoundary(contentType);
  let content: unknown[] = [contentType];
  if (body && boundary) content = ["multipart/form-data", ...(await multipartParts(body, boundary))];
  else if (body && isJson(contentType)) content = [contentType, ...(await jsonDigest(body))];
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
    "Makes a retry safe: the first answer to this key (successes and client errors other than 401, 403, 409 and 429) is kept, encrypted, for 24 hours and replayed, with `Idempotent-Replayed: true`, to a repeat with the same key and the same request. The same key with another request is a 422; a repeat while the first is still running is a 409 with `Retry-After: 1` (after 5 minutes without its outcome, a 409 without it: the request is never run twice under one key); a repeat of a request whose answer was too large to keep (over 512 K characters) is a 409 without it, and is not run again. Keys are per user; 1 to 255 printable ASCII characters.",
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

/** What a claim names: the key, the request's fingerprint and, for whoever reads the storage, its route. */
async function claimOf(c: Context<ApiEnv>, key: string): Promise<BeginIdempotent> {
  const { pathname, search } = new URL(c.req.url);
  const fingerprint = await requestFingerprint(c.req.raw, `${pathname}${search}`);
  return { key, fingerprint, request: `${c.req.method} ${pathname}` };
}

/**
 * For the gate: the claim to send with the admission, when the request carries a well-formed key and
 * its route is one of this middleware's (Hono's matched routes list it); else undefined. A malformed
 * key is this middleware's 422.
 */
export async function claimFor(c: Context<ApiEnv>): Promise<BeginIdempotent | undefined> {
  const key = c.req.header(IDEMPOTENCY_HEADER);
  if (!isIdempotencyKey(key)) return undefined;
  if (!matchedRoutes(c).some((route) => route.handler === idempotency)) return undefined;
  return claimOf(c, key);
}

/** For `admitted()` once the claim is taken: settles only when the claim proceeded. */
export async function waitForClaim(held: HeldClaim): Promise<void> {
  const outcome = await held.outcome;
  // Never shown: the middleware answers in place of whatever the handler made of this.
  if (outcome?.kind !== "proceed")
    throw conflict(`This request was not run: its ${IDEMPOTENCY_HEADER} is already taken.`);
}

/** For the gate: a claim no middleware took (the request was refused before it) leaves the key free. */
export async function releaseUntaken(c: Context<ApiEnv>, held: HeldClaim): Promise<void> {
  const outcome = await held.outcome.catch(() => undefined);
  if (outcome?.kind !== "proceed") return;
  const coordinator = c.env.COORDINATOR.getByName(userCoordinator(c.var.principal));
  await c.var.meter.gate(() => coordinator.releaseIdempotent(held.key, outcome.token)).catch(() => undefined);
}

/** The answer's seal is bound to its user and key: a record moved elsewhere does not open. */
const sealContext = (c: Context<ApiEnv>, key: string) => `${c.var.principal.userId}\u0000${key}`;

/** How a repeat is answered: the kept answer, or the 409 or 422 it gets instead. */
async function answerRepeat(
  c: Context<ApiEnv>,
  key: string,
  begun: Exclude<BeginResult, { kind: "proceed" }>,
) {
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
  if (begun.kind === "stalled")
    throw conflict(
      `A request with this ${IDEMPOTENCY_HEADER} started over 5 minutes ago and has not reported its outcome (it may still be running, or its answer was lost); it is not run again under this key. Look the result up, or send a new key for a new request.`,
    );
  const kept = begun.kind === "replay" ? await openAnswer(c, key, begun.sealed) : null;
  if (begun.kind === "unreplayable" || !kept)
    throw conflict(
      `A request with this ${IDEMPOTENCY_HEADER} already completed (status ${begun.status}), but its answer was not kept, so it cannot be replayed; the request was not run again. Look the result up, or send a new key for a new request.`,
    );
  // A 204 has no body, and a Response refuses one.
  return new Response(begun.status === 204 ? null : kept.body, {
    status: begun.status,
    headers: { ...kept.headers, [REPLAYED_HEADER]: "true" },
  });
}

type KeptAnswer = { body: string; headers: Record<string, string> };

/** The kept answer, or null when it does not open (ENCRYPTION_KEY changed since). */
async function openAnswer(c: Context<ApiEnv>, key: string, sealed: ArrayBuffer): Promise<KeptAnswer | null> {
  try {
    const plain = await openBytes(
      c.env.ENCRYPTION_KEY,
      SEAL_PURPOSE,
      new Uint8Array(sealed),
      sealContext(c, key),
    );
    return JSON.parse(new TextDecoder().decode(plain)) as KeptAnswer;
  } catch (error) {
    console.error("idempotency: a kept answer did not open", error);
    return null;
  }
}

/**
 * After the handler of the request holding the claim: its answer kept (sealed; too large, recorded
 * without it), or the key released when the answer is not one to keep.
 */
async function finish(c: Context<ApiEnv>, key: string, token: string) {
  const coordinator = c.env.COORDINATOR.getByName(userCoordinator(c.var.principal));
  const status = c.res.status;
  if (!keeps(status)) {
    // A release that fails leaves the record in flight: repeats are refused (409) until it expires.
    await c.var.meter.gate(() => coordinator.releaseIdempotent(key, token)).catch(() => undefined);
    return;
  }
  const body = await c.res.clone().text();
  const headers: Record<string, string> = {};
  for (const [name, value] of c.res.headers) if (!PER_REQUEST.test(name)) headers[name] = value;
  const answer = JSON.stringify({ body, headers } satisfies KeptAnswer);
  const sealed =
    answer.length <= MAX_STORED_BODY
      ? (await sealBytes(c.env.ENCRYPTION_KEY, SEAL_PURPOSE, utf8(answer), sealContext(c, key))).buffer
      : undefined;
  const store = () =>
    c.var.meter.gate(() =>
      coordinator.finishIdempotent({ key, token, status, ...(sealed ? { sealed } : {}) }),
    );
  // Tried twice: an answer not stored leaves the record in flight, and every repeat is refused (409)
  // until it expires, since nothing can tell it from a request still running (never run again).
  try {
    await store().catch(store);
  } catch (error) {
    // The answer still goes to the client.
    console.error("idempotency: storing the answer failed", `${c.req.method} ${c.req.path}`, error);
  }
}

/** The middleware of every route that creates something (apiRoute's `idempotent: true`). */
export const idempotency = createMiddleware<ApiEnv>(async (c, next) => {
  const key = c.req.header(IDEMPOTENCY_HEADER);
  if (key === undefined) return next();
  if (!isIdempotencyKey(key)) throw malformedIdempotencyKey();
  const held = c.var.idempotency;
  if (!held) return claimHere(c, next, key);
  // The gate claimed the key with the admission: the handler runs alongside, and whatever it would do
  // besides reading waits for admitted(), which now fails unless the claim proceeded.
  held.taken = true;
  await next();
  // Undefined: the request was refused (401, 429), which the gate answers.
  const begun = await held.outcome.catch(() => undefined);
  if (!begun) return;
  if (begun.kind === "proceed") return finish(c, key, begun.token);
  // The handler stopped at admitted() (or never got there): the repeat's answer replaces its own,
  // headers and all.
  c.res = undefined;
  c.res = await answerRepeat(c, key, begun);
});

/**
 * A claim the gate did not make (a route it did not recognise as idempotent): after the admission, a
 * Coordinator call of its own, then the handler.
 */
async function claimHere(c: Context<ApiEnv>, next: () => Promise<void>, key: string) {
  // Refused requests (401, 403, 429) neither claim nor replay a key.
  await c.var.admitted();
  const claim = await claimOf(c, key);
  const coordinator = c.env.COORDINATOR.getByName(userCoordinator(c.var.principal));
  const begun = await c.var.meter.gate<BeginResult>(async () => {
    // The RPC stub types a union answer as a union of promises; awaited, it is the union.
    const answer: BeginResult = await coordinator.beginIdempotent(claim);
    return answer;
  });
  if (begun.kind !== "proceed") return answerRepeat(c, key, begun);
  try {
    await next();
  } catch (error) {
    await coordinator.releaseIdempotent(key, begun.token).catch(() => undefined);
    throw error;
  }
  await finish(c, key, begun.token);
}
