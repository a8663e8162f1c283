// The sandbox's emulator of the X API v2 (docs.x.com), mounted at /sandbox/twitter: every call the real
// X adapter (src/platforms/twitter/) makes, on X's own paths, methods, bodies and error format. OAuth's
// consent page and the token endpoint (/2/oauth2/token: code exchange with PKCE and HTTP Basic, rotating
// refresh tokens) are the sandbox's generic ones on X's paths; this router answers the rest: revocation,
// the user, posts, media uploads, timelines and search. Every answer carries X's rate-limit headers.
import type { Context } from "hono";
import type { BareEnv } from "../../http/env";
import { timingSafeEqualText } from "../../lib/crypto";
import { isGrant, REFRESH_PURPOSE, unseal } from "../../platforms/sandbox/seal";
import { checkToken } from "../access";
import { sandboxAccountRoutes } from "../account-routes";
import { emulate, emulatorRouter } from "../emulator";
import { oauthError } from "../oauth-error";
import { rateLimitHeaders, WINDOW_SECONDS, xError } from "./errors";
import { append, finalize, initialize, status } from "./media";
import { createTweet, lookupTweet, searchRecent, userTimeline } from "./tweets";

type Ctx = Context<BareEnv>;

/**
 * The answer with X's rate-limit headers for an endpoint allowing `limit` requests per 15 minutes on a
 * user's token (docs.x.com › Rate limits): the window ends on the quarter hour.
 */
function limited(limit: number, answer: Response): Response {
  const window = WINDOW_SECONDS * 1000;
  const resetAt = Math.ceil((Date.now() + 1) / window) * window;
  const headers = new Headers(answer.headers);
  for (const [name, value] of Object.entries(rateLimitHeaders(limit, limit - 1, resetAt)))
    headers.set(name, value);
  return new Response(answer.body, { status: answer.status, headers });
}

const x = (c: Ctx) => emulate(c, "twitter");
const query = (c: Ctx) => new URL(c.req.url).searchParams;

/** The user's fields X answers with (`id`, `name`, `username` always; the others when asked for). */
async function me(c: Ctx) {
  const emulated = x(c);
  const caller = await emulated.caller();
  const fields = new Set((query(c).get("user.fields") ?? "").split(",").filter(Boolean));
  const user: Record<string, unknown> = {
    id: caller.platformId,
    name: caller.handle,
    username: caller.handle,
  };
  if (fields.has("profile_image_url"))
    user.profile_image_url = "https://abs.twimg.com/sticky/default_profile_images/default_profile_normal.png";
  if (fields.has("verified")) user.verified = false;
  if (fields.has("protected")) user.protected = false;
  if (fields.has("description")) user.description = "";
  if (fields.has("created_at")) user.created_at = new Date(caller.issuedAt).toISOString();
  return c.json({ data: user });
}

/**
 * RFC 7009 revocation (POST /2/oauth2/revoke): a confidential client authenticates with HTTP Basic; the
 * token's grant ends (its access and refresh tokens); an unknown token is answered the same (RFC 7009).
 */
async function revoke(c: Ctx) {
  const emulated = x(c);
  const form = await emulated.form();
  const basic = /^Basic\s+(\S+)$/i.exec(c.req.header("authorization") ?? "");
  let decoded = "";
  try {
    decoded = basic ? atob(basic[1]!) : `${form.get("client_id") ?? ""}:`;
  } catch {
    return oauthError(401, "invalid_client", "Client authentication failed.");
  }
  const [id, ...rest] = decoded.split(":");
  const secret = rest.join(":");
  const client = emulated.client;
  if (id !== client.clientId || !timingSafeEqualText(secret, client.clientSecret))
    return oauthError(401, "invalid_client", "Client authentication failed.");
  const token = form.get("token");
  if (!token) return oauthError(400, "invalid_request", "Missing required parameter [token].");
  const access = await checkToken(c.env, "twitter", token);
  let handle = access.kind === "ok" ? access.handle : null;
  if (handle === null) {
    const refresh = await unseal<unknown>(c.env, REFRESH_PURPOSE, token);
    if (isGrant(refresh) && refresh.p === "twitter") handle = refresh.h;
  }
  if (handle !== null) await emulated.store.revoke(handle);
  return c.json({ revoked: true });
}

export const twitterEmulator = emulatorRouter(xError);

twitterEmulator
  .get("/2/users/me", async (c) => limited(75, await me(c)))
  .post("/2/oauth2/revoke", (c) => revoke(c))
  .post("/2/tweets", async (c) => limited(100, await createTweet(x(c))))
  .get("/2/tweets/search/recent", async (c) => limited(300, c.json(await searchRecent(x(c), query(c)))))
  .get("/2/tweets/:id", async (c) =>
    limited(900, c.json(await lookupTweet(x(c), c.req.param("id"), query(c)))),
  )
  .get("/2/users/:id/tweets", async (c) =>
    limited(900, c.json(await userTimeline(x(c), c.req.param("id"), query(c)))),
  )
  .post("/2/media/upload/initialize", async (c) => limited(500, c.json(await initialize(x(c)))))
  .post("/2/media/upload/:id/append", async (c) =>
    limited(500, c.json(await append(x(c), c.req.raw, c.req.param("id")))),
  )
  .post("/2/media/upload/:id/finalize", async (c) =>
    limited(500, c.json(await finalize(x(c), c.req.param("id")))),
  )
  .get("/2/media/upload", async (c) => limited(500, c.json(await status(x(c), query(c)))))
  // x.com/<handle>/status/<id>, where the adapter says a post can be seen: the sandbox's page of the post
  // (its JSON with `Accept: application/json`), whatever the handle, as x.com shows it.
  .get("/:handle/status/:id", (c) =>
    sandboxAccountRoutes.fetch(
      new Request(`${new URL(c.req.url).origin}/twitter/posts/${encodeURIComponent(c.req.param("id"))}`, {
        headers: c.req.raw.headers,
      }),
      c.env,
    ),
  );
