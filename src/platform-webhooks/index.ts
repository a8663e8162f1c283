// The platforms' own webhooks (`/platform-webhooks/{platform}`): public, outside /api/v1, no API key.
// Meta (Facebook, Instagram, Threads) pushes that a comment was written; the push only says which post,
// and a sync job (src/analytics/sync.ts) reads the comments from the platform as the schedule would,
// so a comment is stored once and told once (`comment.received`) however often it is pushed.
//
// - GET: Meta's verification handshake. `hub.mode=subscribe` and `hub.verify_token` equal (constant
//   time) to `<PLATFORM>_WEBHOOK_VERIFY_TOKEN`: 200 with `hub.challenge` as the text; else 403.
// - POST: `X-Hub-Signature-256: sha256=<hex>` must be the HMAC-SHA256 of the raw body under the app's
//   secret (`<PLATFORM>_CLIENT_SECRET`, the OAuth app's, which is Meta's App Secret), checked by
//   crypto.subtle.verify (constant time); missing: 401, wrong: 403, nothing read or queued. A body over
//   PUSH_MAX_BYTES is 413 before it is read further. A signed push is 200 once its rows are claimed and
//   queued; one that names nothing we publish (another app's Page, an unknown post) is 200 all the same.
// A platform whose secret (or verify token, for the handshake) is not set answers 404, as if absent.

import type { BareEnv } from "../http/env";
import { ApiError, badRequest, payloadTooLarge, routeNotFound } from "../http/errors";
import { createRouter } from "../http/router";
import { readCapped } from "../lib/capped-body";
import { hmacKey, secretEquals } from "../lib/crypto";
import { queuePushed } from "./claim";
import { PUSH_PLATFORMS, type PushPlatform, pointersOf } from "./payloads";

/** Meta's pushes are a few KB (a batch of changes); anything past this is not one. */
export const PUSH_MAX_BYTES = 256 * 1024;

const unsigned = () => new ApiError(401, { message: "The X-Hub-Signature-256 header is missing." });
const badSignature = () => new ApiError(403, { message: "The signature does not match the body." });

const pushPlatform = (name: string): PushPlatform | null =>
  (PUSH_PLATFORMS as readonly string[]).includes(name) ? (name as PushPlatform) : null;

/** A variable of the platform's, trimmed; null when unset or blank. */
function setting(env: Env, platform: PushPlatform, suffix: "CLIENT_SECRET" | "WEBHOOK_VERIFY_TOKEN") {
  const value = (env as unknown as Record<string, unknown>)[`${platform.toUpperCase()}_${suffix}`];
  return typeof value === "string" && value.trim() ? value.trim() : null;
}

const fromHex = (hex: string) => Uint8Array.from(hex.match(/../g) ?? [], (byte) => Number.parseInt(byte, 16));

/** Whether `header` (`sha256=<hex>`) is the HMAC-SHA256 of `body` under `secret`. */
export async function signedBy(secret: string, body: Uint8Array<ArrayBuffer>, header: string) {
  const match = /^sha256=([0-9a-fA-F]{64})$/.exec(header.trim());
  if (!match) return false;
  return crypto.subtle.verify("HMAC", await hmacKey(secret), fromHex(match[1]!), body);
}

export const platformWebhooksRouter = createRouter<BareEnv>();
platformWebhooksRouter
  .get("/:platform", async (c) => {
    const platform = pushPlatform(c.req.param("platform"));
    const token = platform && setting(c.env, platform, "WEBHOOK_VERIFY_TOKEN");
    if (!token) throw routeNotFound();
    const given = c.req.query("hub.verify_token") ?? "";
    // Hashed first: an operator-chosen token of any length, compared without telling its length.
    if (c.req.query("hub.mode") !== "subscribe" || !(await secretEquals(given, token)))
      throw new ApiError(403, { message: "The verify token does not match." });
    return c.text(c.req.query("hub.challenge") ?? "", 200);
  })
  .post("/:platform", async (c) => {
    const platform = pushPlatform(c.req.param("platform"));
    const secret = platform && setting(c.env, platform, "CLIENT_SECRET");
    if (!platform || !secret) throw routeNotFound();
    const header = c.req.header("x-hub-signature-256");
    if (!header) throw unsigned();
    const body = await readCapped(c.req.raw, PUSH_MAX_BYTES);
    if (body === "too_large") throw payloadTooLarge();
    if (body === null) throw badRequest("The request body could not be read.");
    if (!(await signedBy(secret, body as Uint8Array<ArrayBuffer>, header))) throw badSignature();
    let parsed: unknown;
    try {
      parsed = JSON.parse(new TextDecoder().decode(body));
    } catch {
      throw badRequest("The request body is not JSON.");
    }
    const queued = await queuePushed(c.env, platform, pointersOf(platform, parsed), Date.now());
    return c.json({ queued }, 200);
  });
