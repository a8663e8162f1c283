// The sandbox platform's publishing API, answering the way a platform's API would: JSON in, JSON out,
// `{error: {code, message}}` with a 4xx or 5xx on failure, 429 with Retry-After, and a lost answer that
// really is lost (#sandbox-lost: the post is stored, then the body breaks off mid-answer). The store
// (store.ts) holds the posts; the failure triggers are in triggers.ts. Expired or foreign tokens are a 401
// invalid_token, unreadable or oversized bodies a 400 or a 413, never a crash.
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { z } from "zod";
import { bearerToken } from "../http/auth";
import type { BareEnv } from "../http/env";
import { createRouter } from "../http/router";
import { checkToken, platformOf, type TokenCheck, tokenRefusal } from "./access";
import { isProblem, readJson } from "./body";
import type { Attempt } from "./posts";
import { FINGERPRINT_MAX, publishRequest, readBody, replyRequest } from "./requests";
import type { ReplyAttempt } from "./store";

const POST_ID = /^\d{1,20}$/;

type Ctx = Context<BareEnv>;

const failure = (
  c: Ctx,
  status: ContentfulStatusCode,
  code: string,
  message: string,
  headers?: Record<string, string>,
) => c.json({ error: { code, message } }, status, headers);

const invalidToken = (c: Ctx, check: TokenCheck) => failure(c, 401, "invalid_token", tokenRefusal(check));
const noSuchPost = (c: Ctx) => failure(c, 404, "not_found", "No post with this id.");

const storeOf = (c: Ctx) => c.env.SANDBOX_STORE.getByName(platformOf(c.req.param("platform")).platform);

/** Whom the request's bearer token (or `access_token` query parameter) acts for, if it is live. */
const caller = (c: Ctx) =>
  checkToken(
    c.env,
    platformOf(c.req.param("platform")).platform,
    bearerToken(c.req.header("authorization")) ?? c.req.query("access_token"),
  );

const postUrl = (c: Ctx, id: string) =>
  `${new URL(c.req.url).origin}/sandbox/${platformOf(c.req.param("platform")).platform}/posts/${id}`;

/**
 * A 201 whose body breaks off after a few bytes, as when the connection drops mid-answer: the caller
 * sees a network failure after sending, exactly as it would a real lost answer.
 */
function lostAnswer(): Response {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  // Nobody waits on these: the reader sees the abort, which is the point.
  writer.write(new TextEncoder().encode('{"id":"')).catch(() => {});
  writer.abort(new TypeError("Network connection lost.")).catch(() => {});
  return new Response(readable, { status: 201, headers: { "content-type": "application/json" } });
}

/** The answer to a publication attempt (a post or a reply). */
function attemptAnswer(c: Ctx, attempt: Attempt | ReplyAttempt): Response {
  switch (attempt.kind) {
    case "publish":
      return c.json(
        {
          id: attempt.id,
          url: postUrl(c, attempt.id),
          published_at: new Date(attempt.publishedAt).toISOString(),
        },
        201,
      );
    case "publish_lost":
      return lostAnswer();
    case "reject":
      return failure(c, 400, "content_rejected", attempt.message);
    case "unavailable":
      return failure(c, 503, "service_unavailable", attempt.message);
    case "rate_limited":
      return failure(c, 429, "rate_limited", attempt.message, {
        "Retry-After": String(attempt.retryAfterSeconds),
      });
    case "no_parent":
      return noSuchPost(c);
  }
}

/** The request's JSON body checked against `schema`, else the failure to answer with. */
async function bodyOf<T>(c: Ctx, schema: z.ZodType<T>): Promise<T | Response> {
  const read = await readJson(c.req.raw);
  if (isProblem(read)) {
    return read.kind === "too_large"
      ? failure(c, 413, "payload_too_large", "The request body is too large.")
      : failure(c, 400, "invalid_request", `Invalid request: ${read.message}`);
  }
  const body = readBody(schema, read.value);
  return typeof body === "string" ? failure(c, 400, "invalid_request", body) : body;
}

export const sandboxPostRoutes = createRouter<BareEnv>()
  .post("/:platform/posts", async (c) => {
    const check = await caller(c);
    if (check.kind !== "ok") return invalidToken(c, check);
    const body = await bodyOf(c, publishRequest);
    if (body instanceof Response) return body;
    const { handle } = check;
    return attemptAnswer(
      c,
      await storeOf(c).publish({ handle, fingerprint: body.fingerprint, items: body.items }),
    );
  })
  .get("/:platform/posts", async (c) => {
    const check = await caller(c);
    if (check.kind !== "ok") return invalidToken(c, check);
    const fingerprint = c.req.query("fingerprint");
    if (!fingerprint || fingerprint.length > FINGERPRINT_MAX) {
      return failure(
        c,
        400,
        "invalid_request",
        `The fingerprint parameter is required (${FINGERPRINT_MAX} characters at most).`,
      );
    }
    const found = await storeOf(c).find(check.handle, fingerprint);
    const data = found
      ? [{ id: found.id, url: postUrl(c, found.id), published_at: new Date(found.publishedAt).toISOString() }]
      : [];
    return c.json({ data });
  })
  .get("/:platform/posts/:id/insights", async (c) => {
    const spec = platformOf(c.req.param("platform"));
    const check = await caller(c);
    if (check.kind !== "ok") return invalidToken(c, check);
    const id = c.req.param("id");
    if (!POST_ID.test(id)) return noSuchPost(c);
    const result = await storeOf(c).insights(spec.platform, id, check.handle);
    if (result.kind === "unknown") return noSuchPost(c);
    if (result.kind === "not_owner") {
      return failure(
        c,
        403,
        "forbidden",
        "Insights are only available to the account that published the post.",
      );
    }
    return c.json({ id, metrics: result.value });
  })
  .get("/:platform/posts/:id/comments", async (c) => {
    const spec = platformOf(c.req.param("platform"));
    const check = await caller(c);
    if (check.kind !== "ok") return invalidToken(c, check);
    const id = c.req.param("id");
    const comments = POST_ID.test(id) ? await storeOf(c).comments(spec.platform, id) : null;
    if (!comments) return noSuchPost(c);
    const origin = new URL(c.req.url).origin;
    return c.json({
      data: comments.map((comment) => ({
        id: comment.id,
        text: comment.text,
        created_at: new Date(comment.created_at).toISOString(),
        author: {
          ...comment.author,
          profile_url: `${origin}/sandbox/${spec.platform}/accounts/${encodeURIComponent(comment.author.username)}/posts`,
        },
      })),
    });
  })
  .post("/:platform/posts/:id/replies", async (c) => {
    const check = await caller(c);
    if (check.kind !== "ok") return invalidToken(c, check);
    const id = c.req.param("id");
    if (!POST_ID.test(id)) return noSuchPost(c);
    const body = await bodyOf(c, replyRequest);
    if (body instanceof Response) return body;
    const items = [{ text: body.text, media: [] }];
    const post = { handle: check.handle, fingerprint: body.fingerprint, items };
    return attemptAnswer(c, await storeOf(c).reply(id, post));
  });
