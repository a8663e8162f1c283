// The cap on request bodies, before anything parses one: a body whose Content-Length is over the cap is
// refused before a byte of it is read; one without (chunked) is counted while it is read and cut off at
// the cap. Either way the answer is 413 `{"message": "The request body is too large."}`, and no more
// than the cap is ever held. The route declarers (route.ts) put it on every route that takes a JSON
// body; browser form posts use `formBodyLimit`. File uploads have none: they stream, with their own caps
// (src/media/upload.ts).
import { createMiddleware } from "hono/factory";
import { readCapped } from "../lib/capped-body";
import { badRequest, payloadTooLarge } from "./errors";

/** Every JSON body: far above any request the API documents (a post's text is at most 65,536 characters). */
export const JSON_BODY_MAX_BYTES = 1024 * 1024;
/** An HTML form a browser posts (the channel pick, the sandbox's consent page): a few short fields. */
export const FORM_BODY_MAX_BYTES = 16 * 1024;

/**
 * Reads the body up to `max` bytes (413 past it) and hands it on in memory, so validators, the
 * idempotency fingerprint and handlers read the capped copy, never the network stream.
 */
export const bodyLimit = (max: number) =>
  createMiddleware(async (c, next) => {
    const raw = c.req.raw;
    const bytes = await readCapped(raw, max);
    if (bytes === "too_large") throw payloadTooLarge();
    if (bytes === null) throw badRequest("The request body could not be read.");
    if (raw.body) {
      const headers = new Headers(raw.headers);
      headers.set("content-length", String(bytes.byteLength));
      c.req.raw = new Request(raw.url, {
        method: raw.method,
        headers,
        body: bytes,
        signal: raw.signal,
        cf: raw.cf,
      } as RequestInit);
    }
    await next();
  });

export const jsonBodyLimit = bodyLimit(JSON_BODY_MAX_BYTES);
export const formBodyLimit = bodyLimit(FORM_BODY_MAX_BYTES);
