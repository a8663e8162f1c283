// What every platform emulator (src/sandbox/<platform>/) is built from: a router whose refusals are
// answered in the platform's own error format, and the platform's side of the sandbox for one request
// (`emulate(c, platform)`): who the access token acts for, the failure triggers, the ledger of posts,
// uploads and containers, insights and comments, and stored media. An emulator only says what its
// platform's API looks like: paths, bodies, ids, metric names and errors, each following the platform's
// documentation (docs/platforms.md names the page).
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { z } from "zod";
import type { Platform } from "../db/enums";
import { bearerToken } from "../http/auth";
import type { BareEnv } from "../http/env";
import { renderError } from "../http/errors";
import { createRouter } from "../http/router";
import { readCapped } from "../lib/capped-body";
import { sandboxClient } from "../platforms/sandbox/credentials";
import { seal, TOKEN_PURPOSE, type TokenPayload } from "../platforms/sandbox/seal";
import type { Channel, PostMetrics } from "../platforms/types";
import { checkToken, sandboxStore, tokenRefusal } from "./access";
import { isProblem, readBody, readForm, readJson } from "./body";
import { sandboxChannels } from "./channels";
import { lifetimeMs, scaledMs } from "./clock";
import {
  type LedgerItem,
  type NewLedgerComment,
  type NewLedgerPost,
  SANDBOX_LIMITS,
  type Stat,
  type LedgerObject as StoredObject,
  type LedgerPost as StoredPost,
} from "./ledger";
import type { SandboxComment } from "./metrics";
import { mintToken } from "./mint";
import { sandboxPlatformId } from "./shapes";
import { decide, isSlow, SLOW_PROCESSING_MS, triggerOf } from "./triggers";

type Ctx = Context<BareEnv>;

/** Why the emulated platform refuses a call: each emulator words and shapes it the platform's way. */
export type Reason =
  | "invalid_token"
  | "expired_token"
  | "revoked_token"
  | "invalid_request"
  | "not_found"
  | "forbidden"
  | "too_large"
  /** The content is refused for good (#sandbox-fail, or a rule of the platform). */
  | "rejected"
  /** A transient fault (#sandbox-flaky). */
  | "unavailable"
  /** The platform's rate limit (#sandbox-ratelimit). */
  | "rate_limited"
  /** Media or a container still processing (#sandbox-slow). */
  | "not_ready";

export type Problem = {
  status: ContentfulStatusCode;
  reason: Reason;
  message: string;
  /** For `rate_limited`: when to try again. */
  retryAfterSeconds?: number;
  /** A platform's own error code to answer with, where the emulator knows it better than the reason. */
  code?: string | number;
};

/** A refusal thrown anywhere in an emulator's route; its router answers it in the platform's format. */
export class SandboxRefusal extends Error {
  constructor(readonly problem: Problem) {
    super(problem.message);
  }
}

export const refuse = (
  status: ContentfulStatusCode,
  reason: Reason,
  message: string,
  extra: Partial<Problem> = {},
): never => {
  throw new SandboxRefusal({ status, reason, message, ...extra });
};

/** The platform's error answer for a problem. */
export type ErrorFormat = (problem: Problem) => Response;

/** An emulator's router: mounted at /sandbox/<platform>; its refusals answer in `format`. */
export const emulatorRouter = (format: ErrorFormat) =>
  createRouter<BareEnv>().onError((error, c) =>
    error instanceof SandboxRefusal ? format(error.problem) : renderError(error, c),
  );

/** The `Retry-After`-style wait of #sandbox-ratelimit, in seconds. */
export { RATE_LIMIT_RETRY_AFTER_SECONDS } from "./triggers";

/** The account a valid access token acts for. */
export type Caller = {
  handle: string;
  /** Its stable platform id (the same for every token of the handle). */
  platformId: string;
  issuedAt: number;
  expiresAt: number;
  longLived: boolean;
  clientId: string;
  /** The scopes its user granted; null: every scope (a token minted for a tokenless account). */
  scopes: readonly string[] | null;
  /** The token itself, as presented. */
  token: string;
};

/**
 * Refuses (403 `forbidden`, in the platform's format, with its `message`) a caller whose token lacks every one of
 * `scopes` (any one of them is enough, where a platform accepts either of two), as the platform refuses a
 * call its app's token was not granted the permission for.
 */
export function requireScope(
  caller: Caller,
  scopes: readonly string[],
  message = `The access token was not granted the ${scopes.join(" or ")} permission this call needs.`,
  extra: Partial<Problem> = {},
) {
  if (caller.scopes === null || scopes.some((scope) => caller.scopes!.includes(scope))) return;
  refuse(403, "forbidden", message, extra);
}

/**
 * A 2xx whose body breaks off after a few bytes, as when the connection drops mid-answer: the caller
 * sees a network failure after sending, exactly as it would a real lost answer (#sandbox-lost).
 */
export function lostAnswer(status = 200): Response {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  // Nobody waits on these: the reader sees the abort, which is the point.
  writer.write(new TextEncoder().encode('{"id":"')).catch(() => {});
  writer.abort(new TypeError("Network connection lost.")).catch(() => {});
  return new Response(readable, { status, headers: { "content-type": "application/json" } });
}

/** A post as an emulator sees it: `platform_request` as the value the platform received. */
export type LedgerPost = Omit<StoredPost, "platform_request"> & { platform_request: unknown };
/** An upload, container or publish id as an emulator sees it: its data as an object. */
export type LedgerObject = Omit<StoredObject, "data"> & { data: Record<string, unknown> };
/** A post to store: `platformRequest` is the body (or bodies) the platform received. */
export type NewPost = Omit<NewLedgerPost, "platformRequest"> & { platformRequest: unknown };

const postOf = (post: StoredPost): LedgerPost => ({
  ...post,
  platform_request: JSON.parse(post.platform_request) as unknown,
});
const objectOf = (object: StoredObject): LedgerObject => ({
  ...object,
  data: JSON.parse(object.data) as Record<string, unknown>,
});
const maybe = <T, U>(value: T | null, map: (value: T) => U): U | null => (value === null ? null : map(value));

/** The platform's side of the sandbox for one request: what every emulator's route is built from. */
export function emulate(c: Ctx, platform: Platform) {
  const env = c.env;
  /**
   * The user's space the request acts in (src/platforms/sandbox/owner.ts), as its access token names
   * it once `caller()` checked it (null: the shared one); the store is that space's.
   */
  let space: string | null = null;
  let store = sandboxStore(env, platform, space);
  const origin = new URL(c.req.url).origin;
  const base = `${origin}/sandbox/${platform}`;
  /** The account the request's access token acts for, once `caller()` checked it. */
  let actingFor: string | null = null;

  return {
    platform,
    env,
    /** The store of the caller's space (the shared one until `caller()` names another). */
    get store() {
      return store;
    },
    /** The store of a space a token names, for a route that checks a token without acting for it (a revocation). */
    storeOf: (tokenSpace: string | null) => sandboxStore(env, platform, tokenSpace),
    origin,
    /** `${origin}/sandbox/<platform>`: where the platform's own paths live. */
    base,
    now: () => Date.now(),

    /**
     * Who the call acts for: the bearer token (or `token`, or the `access_token` parameter), refused
     * with a 401 when missing, forged, expired or revoked.
     */
    async caller(token?: string | null): Promise<Caller> {
      const presented =
        token ?? bearerToken(c.req.header("authorization")) ?? c.req.query("access_token") ?? null;
      if (!presented) return refuse(401, "invalid_token", "No access token was given.");
      const check = await checkToken(env, platform, presented);
      if (check.kind !== "ok") {
        const reason =
          check.kind === "expired"
            ? "expired_token"
            : check.kind === "revoked"
              ? "revoked_token"
              : "invalid_token";
        return refuse(401, reason, tokenRefusal(check));
      }
      actingFor = check.handle;
      space = check.space;
      store = sandboxStore(env, platform, space);
      return {
        handle: check.handle,
        platformId: await sandboxPlatformId(platform, check.handle, space),
        issuedAt: check.issuedAt,
        expiresAt: check.expiresAt,
        longLived: check.longLived,
        clientId: check.clientId,
        scopes: check.scopes,
        token: presented,
      };
    },

    /** The stable platform id of a handle (in the caller's space). */
    platformId: (handle: string) => sandboxPlatformId(platform, handle, space),

    /** The places (Pages, organisations, channels) a user can publish as, each with its stable id. */
    channels: (handle: string, scopes?: readonly string[] | null): Promise<Channel[]> =>
      sandboxChannels(env, platform, handle, scopes ?? undefined, space),

    /**
     * A fresh access token for `handle` with the platform's documented lifetime (seconds, on the
     * sandbox's clock): for exchanges outside the token endpoint (Meta's long-lived tokens).
     */
    async issueToken(
      handle: string,
      lifetimeSeconds: number,
      options: { longLived?: boolean; scopes?: readonly string[] | null } = {},
    ) {
      const now = Date.now();
      const ms = lifetimeMs(env, lifetimeSeconds);
      const payload: TokenPayload = {
        p: platform,
        h: handle,
        k: sandboxClient(platform).clientId,
        e: now + ms,
        i: now,
        ...(options.longLived ? { l: true } : {}),
        // An exchanged token keeps what its user granted.
        ...(options.scopes ? { s: [...options.scopes] } : {}),
        ...(space ? { o: space } : {}),
      };
      return { token: await seal(env, TOKEN_PURPOSE, payload), expiresIn: Math.floor(ms / 1000) };
    },

    /** A short-lived token for `handle` (a Page's own token handed out with a channel list). */
    mintToken: (handle: string) =>
      mintToken(env, platform, handle, undefined, undefined, undefined, undefined, space),

    /** A documented duration (seconds) on the sandbox's clock, in ms: Meta's "at least 24 h old". */
    scaledMs: (seconds: number) => scaledMs(env, seconds),

    /** The client the sandbox's adapters present (checked where a platform checks its app's secret). */
    client: sandboxClient(platform),

    /**
     * One attempt at publishing `text` for `handle`: the failure triggers decide by the attempt's number
     * (counted per (handle, key): the same post sent again is the next attempt). Refuses for #sandbox-fail,
     * -flaky, -ratelimit; "lost" means: publish, then answer with `lostAnswer()`.
     */
    async attempt(handle: string, key: string, text: string): Promise<"publish" | "lost"> {
      const trigger = triggerOf(text);
      if (trigger === null || trigger === "slow") return "publish";
      const decision = decide(trigger, await store.countTry(handle, `${trigger}:${key}`));
      switch (decision.kind) {
        case "publish":
          return "publish";
        case "publish_lost":
          return "lost";
        case "reject":
          return refuse(400, "rejected", decision.message);
        case "unavailable":
          return refuse(503, "unavailable", decision.message);
        case "rate_limited":
          return refuse(429, "rate_limited", decision.message, {
            retryAfterSeconds: decision.retryAfterSeconds,
          });
      }
    },

    /** When media or a container created now for `text` is done processing (#sandbox-slow: 150 s). */
    readyAt: (text: string, processingMs = 0) =>
      Date.now() + (isSlow(text) ? SLOW_PROCESSING_MS : processingMs),

    /** Stores a published post (counted in the account's stats); its id, page URL and time. */
    async publish(post: NewPost) {
      const { id, publishedAt } = await store.insertPost({
        ...post,
        platformRequest: JSON.stringify(post.platformRequest ?? null),
      });
      return { id, url: `${base}/posts/${encodeURIComponent(id)}`, publishedAt };
    },
    postUrl: (id: string) => `${base}/posts/${encodeURIComponent(id)}`,
    post: async (id: string): Promise<LedgerPost | null> => maybe(await store.post(id), postOf),
    /** The account's public posts (or the replies to `parentId`), oldest first. */
    posts: async (handle: string, parentId?: string): Promise<LedgerPost[]> =>
      (await store.listPosts(handle, { parentId: parentId ?? null })).map(postOf),
    replies: async (parentId: string): Promise<LedgerPost[]> => (await store.repliesTo(parentId)).map(postOf),

    /** An upload, container or upload session the platform created (counted as a media upload). */
    async createObject(object: {
      id?: string;
      handle: string;
      kind: string;
      data: Record<string, unknown>;
      readyAt?: number;
      /** Whether it counts in the account's `media_uploads` (default true). */
      upload?: boolean;
    }): Promise<LedgerObject> {
      const created = await store.createObject({
        ...object,
        data: JSON.stringify(object.data),
        readyAt: object.readyAt ?? Date.now(),
      });
      if (object.upload !== false) await store.bump(object.handle, "media_uploads");
      return objectOf(created);
    },
    object: async (id: string): Promise<LedgerObject | null> => maybe(await store.getObject(id), objectOf),
    /** Merges `patch` into the object's data (and moves its ready time if given). */
    updateObject: async (id: string, patch: Record<string, unknown>, readyAt?: number) =>
      maybe(await store.updateObject(id, JSON.stringify(patch), readyAt), objectOf),
    objects: async (handle: string, kind: string): Promise<LedgerObject[]> =>
      (await store.listObjects(handle, kind)).map(objectOf),
    bump: (handle: string, stat: Stat) => store.bump(handle, stat),

    /**
     * Stores uploaded bytes so the post's page can show them; the URL it is served at. Bounded
     * (SANDBOX_LIMITS): a 413 above the bytes one upload may store, and the account's (`handle`, else
     * the caller's) and the platform's oldest media deleted past their totals.
     */
    async storeMedia(
      id: string,
      body: ReadableStream | ArrayBuffer | Uint8Array | string,
      type: string,
      handle: string | null = actingFor,
    ) {
      const max = SANDBOX_LIMITS.mediaBytesPerUpload;
      const bytes =
        body instanceof ReadableStream
          ? await readCapped(new Request(base, { method: "PUT", body }), max)
          : typeof body === "string"
            ? new TextEncoder().encode(body)
            : new Uint8Array(body);
      if (bytes === null) return refuse(400, "invalid_request", "The upload broke off.");
      if (bytes === "too_large" || bytes.byteLength > max)
        return refuse(413, "too_large", `The sandbox stores at most ${max / 1024 / 1024} MB per upload.`);
      const key = `sandbox/${platform}/${id}`;
      await env.MEDIA.put(key, bytes, { httpMetadata: { contentType: type } });
      const evicted = await store.keepMedia(handle ?? "", key, bytes.byteLength);
      if (evicted.length > 0) await env.MEDIA.delete(evicted);
      return `${base}/media/${encodeURIComponent(id)}`;
    },
    /** Deletes stored media (by their ids) and forgets them. */
    async dropMedia(ids: string[]) {
      const keys = ids.map((id) => `sandbox/${platform}/${id}`);
      await env.MEDIA.delete(keys);
      await store.dropMedia(keys);
    },

    /** A post's metrics now (generic names: each emulator renames them its platform's way). */
    metrics: (id: string): Promise<PostMetrics | null> => store.metrics(platform, id),
    /** A post's comments now, oldest first. */
    comments: (id: string): Promise<SandboxComment[] | null> => store.comments(platform, id),
    /** A stored comment (a follower's or the account's reply) with its post's id; null when there is none. */
    comment: (id: string) => store.comment(id),
    /** Stores a comment the account wrote through the platform's API (a reply); its id. */
    addComment: (comment: NewLedgerComment) => store.addComment(comment),
    hideComment: (id: string, hidden: boolean) => store.hideComment(id, hidden),
    deleteComment: (id: string) => store.deleteComment(id),

    /** The request's JSON body checked against `schema`; a 400 or 413 in the platform's format. */
    async json<T>(schema: z.ZodType<T>): Promise<T> {
      const read = await readJson(c.req.raw);
      if (isProblem(read)) {
        return read.kind === "too_large"
          ? refuse(413, "too_large", "The request body is too large.")
          : refuse(400, "invalid_request", `Invalid request: ${read.message}`);
      }
      const body = readBody(schema, read.value);
      return typeof body === "string" ? refuse(400, "invalid_request", body) : body;
    },
    /** The request's form body; a 400 or 413 in the platform's format. */
    async form(): Promise<URLSearchParams> {
      const read = await readForm(c.req.raw);
      if (isProblem(read)) {
        return read.kind === "too_large"
          ? refuse(413, "too_large", "The request body is too large.")
          : refuse(400, "invalid_request", read.message);
      }
      return read;
    },
  };
}

export type Emulated = ReturnType<typeof emulate>;

/** A post's items as the ledger keeps them: text and media (URLs the page shows). */
export type { LedgerItem };

/** Whether a ready time has passed. */
export const isReady = (object: Pick<LedgerObject, "readyAt">) => object.readyAt <= Date.now();
