// What the sandbox shows beyond the platforms' own APIs, the same on every platform: a post's page (and,
// with `Accept: application/json`, what the platform received for it), an account's posts and counters
// (how a test counts publications and uploads), the user removing the app, a follower commenting on a
// post, and stored media.
// With SANDBOX=true (local development) the post pages and account tools are open to anyone, in the one
// shared space. Otherwise (test mode on a deployment) they answer only the owning test key: its user's
// space (src/platforms/sandbox/owner.ts), and only for handles connected to one of its test workspaces.
import { and, eq } from "drizzle-orm";
import type { Context } from "hono";
import { every } from "hono/combine";
import { createMiddleware } from "hono/factory";
import { z } from "zod";
import { accounts } from "../db/schema";
import { shardOfId } from "../db/shards";
import { inUserWorkspaces } from "../db/tenancy";
import { requestContext } from "../http/context";
import type { BareEnv } from "../http/env";
import { routeNotFound, unauthenticated } from "../http/errors";
import { type KeyEnv, keyCheck } from "../http/gate";
import { createRouter } from "../http/router";
import { sandboxEnabled } from "../platforms/sandbox/enabled";
import { spaceOfUser } from "../platforms/sandbox/owner";
import { sandboxStore } from "./access";
import { isProblem, readBody, readJson } from "./body";
import { HANDLE_MAX } from "./consent";
import type { LedgerPost } from "./ledger";
import { mintToken, SESSION_REVOKED } from "./mint";
import { missingPostPage, postPage } from "./page";
import { platformOf, sandboxPlatformId } from "./shapes";

/**
 * A post page's or account tool's caller: the space it sees, and whether a handle is one of its accounts
 * there (set by `toolAccess`; the key's principal only with SANDBOX off).
 */
type ToolEnv = {
  Bindings: Env;
  Variables: Partial<KeyEnv["Variables"]> & {
    space: string | null;
    owns: (handle: string) => Promise<boolean>;
  };
};
type Ctx = Context<ToolEnv>;

/**
 * A post id as any platform writes it: digits, a URN (a comment's has parentheses), `<page>_<post>`, an
 * 11-character video id, TikTok's publish id (`v_pub_file~v2-1.…`).
 */
const POST_ID = /^[A-Za-z0-9_:.,()~-]{1,200}$/;
const MEDIA_ID = /^[A-Za-z0-9_:.-]{1,200}$/;

const specOf = (c: Context<BareEnv> | Ctx) => platformOf(c.req.param("platform"));
const storeOf = (c: Ctx) => sandboxStore(c.env, specOf(c).platform, c.var.space);

/**
 * With SANDBOX off, the owning test key (read by the API's own key check, src/http/gate.ts: a missing,
 * unknown or expired key is its 401; a live key is the same 401, as if it were not a key of this surface).
 * Its user's space, and a handle counts as theirs when connected to one of their test workspaces: any
 * other handle, another user's included, is the same 404 as one that exists nowhere.
 */
const owningTestKey = createMiddleware<ToolEnv>(async (c, next) => {
  const principal = c.var.principal!;
  if (principal.mode !== "test") throw unauthenticated();
  const tenant = { userId: principal.userId, mode: principal.mode };
  const db = c.var.shards!.at(shardOfId(principal.userId));
  const platform = specOf(c).platform;
  c.set("space", spaceOfUser(principal.userId));
  c.set("owns", async (handle) => {
    const [row] = await db
      .select({ id: accounts.id })
      .from(accounts)
      .where(
        and(
          eq(accounts.platform, platform),
          eq(accounts.username, handle),
          inUserWorkspaces(db, accounts.workspaceId, tenant),
        ),
      )
      .limit(1);
    return row !== undefined;
  });
  await next();
});

/** Who may see a post page or use an account tool (see the top of this file). */
const toolAccess = createMiddleware<ToolEnv>(async (c, next) => {
  if (sandboxEnabled(c.env)) {
    c.set("space", null);
    c.set("owns", async () => true);
    return next();
  }
  await every(requestContext, keyCheck, owningTestKey)(c, next);
});

/**
 * Whether a request (its path after /sandbox) is a post page or an account tool, which the sandbox's gate
 * lets through with SANDBOX off for `toolAccess` to decide.
 */
export const isAccountTool = (method: string, path: string) =>
  method === "GET"
    ? /^\/[a-z]+\/(posts\/[^/]+|accounts\/[^/]+\/(posts|stats))$/.test(path)
    : method === "POST" && /^\/[a-z]+\/accounts\/[^/]+\/(revoke|comments)$/.test(path);

/** Whether the client asked for JSON rather than a page. */
const wantsJson = (accept: string | undefined) =>
  /application\/json/i.test(accept ?? "") && !/text\/html/i.test(accept ?? "");

/** A stored post as shown: what the platform received as JSON, not as the store's text. */
const viewOf = ({ parent_id: _parent, ...post }: LedgerPost) => ({
  ...post,
  platform_request: JSON.parse(post.platform_request) as unknown,
});

const notFound = (c: Ctx, message: string) => c.json({ error: { code: "not_found", message } }, 404);
const invalid = (c: Ctx, message: string) => c.json({ error: { code: "invalid_request", message } }, 400);

/** A follower's name on every platform: letters, digits, `_` and `.`, as X and Instagram allow. */
const username = z.string().regex(/^[A-Za-z0-9_.]{1,30}$/, "A username is 1 to 30 letters, digits, _ or .");
/**
 * A follower commenting (POST …/accounts/{handle}/comments): on the account's post `post_id` (the
 * platform's id, the row's platform_post_id), or answering its comment `parent_id` (as the platform shows
 * it). `author` is a username, or a display name and a username.
 */
const followerComment = z.object({
  post_id: z.string().regex(POST_ID, "Not a post id."),
  text: z.string().trim().min(1).max(5000),
  author: z.union([
    username.transform((name) => ({ name, username: name })),
    z.object({ name: z.string().trim().min(1).max(100), username }),
  ]),
  parent_id: z.string().min(1).max(300).nullish(),
});

/** The handle in the path, as any consent page could have accepted it. */
function readableHandle(c: Context<BareEnv> | Ctx): string | null {
  const handle = c.req.param("handle") ?? "";
  return handle !== "" && [...handle].length <= HANDLE_MAX && handle.isWellFormed() ? handle : null;
}

/** The handle in the path, if it is one of the caller's accounts (`toolAccess`). */
async function handleOf(c: Ctx): Promise<string | null> {
  const handle = readableHandle(c);
  return handle !== null && (await c.var.owns(handle)) ? handle : null;
}

/**
 * The post with this id, or the one an upload, container or publish id became (TikTok answers a
 * publish id before the video has its public id): objects name theirs as `postId` (TikTok: `videoId`).
 */
async function postOrWhatItBecame(store: ReturnType<typeof storeOf>, id: string) {
  const post = await store.post(id);
  if (post) return post;
  const object = await store.getObject(id);
  if (!object) return null;
  const data = JSON.parse(object.data) as Record<string, unknown>;
  const target = data.postId ?? data.videoId;
  return typeof target === "string" ? store.post(target) : null;
}

export const sandboxAccountRoutes = createRouter<ToolEnv>()
  .use("/:platform/posts/:id", toolAccess)
  .use("/:platform/accounts/:handle/:tool{posts|stats|revoke|comments}", toolAccess)
  .get("/:platform/posts/:id", async (c) => {
    const spec = specOf(c);
    const id = c.req.param("id");
    const json = wantsJson(c.req.header("accept"));
    const found = POST_ID.test(id) ? await postOrWhatItBecame(storeOf(c), id) : null;
    const stored = found && (await c.var.owns(found.handle)) ? found : null;
    if (!stored) return json ? notFound(c, "No post with this id.") : missingPostPage(spec);
    const post = viewOf(stored);
    return json ? c.json(post) : postPage(spec, post, new URL(c.req.url).origin);
  })
  // Every post published on the account, oldest first, private ones included.
  .get("/:platform/accounts/:handle/posts", async (c) => {
    const handle = await handleOf(c);
    if (handle === null) return notFound(c, "No such account.");
    return c.json({ data: (await storeOf(c).listPosts(handle, { all: true })).map(viewOf) });
  })
  .get("/:platform/accounts/:handle/stats", async (c) => {
    const handle = await handleOf(c);
    if (handle === null) return notFound(c, "No such account.");
    return c.json(await storeOf(c).stats(handle));
  })
  // The user removes the app on the platform: every token of the account issued until now stops working.
  .post("/:platform/accounts/:handle/revoke", async (c) => {
    const handle = await handleOf(c);
    if (handle === null) return notFound(c, "No such account.");
    await storeOf(c).revoke(handle);
    return c.json({ revoked: true, handle });
  })
  // A follower comments on one of the account's published posts, or answers one of its comments; the
  // emulator's comment listing shows it from then on. A reply to a reply answers the top-level comment,
  // as Instagram, Facebook, LinkedIn and YouTube keep two levels.
  .post("/:platform/accounts/:handle/comments", async (c) => {
    const handle = await handleOf(c);
    if (handle === null) return notFound(c, "No such account.");
    const body = await readJson(c.req.raw);
    if (isProblem(body))
      return body.kind === "too_large"
        ? c.json({ error: { code: "too_large", message: "The body is too large." } }, 413)
        : invalid(c, body.message);
    const input = readBody(followerComment, body.value);
    if (typeof input === "string") return invalid(c, input);
    const spec = specOf(c);
    const store = storeOf(c);
    // TikTok's row may still hold the publish id its video was published under.
    const post = await postOrWhatItBecame(store, input.post_id);
    if (!post || post.handle !== handle || post.parent_id !== null)
      return notFound(c, "The account has no published post with this id.");
    const shown = (id: string) => spec.commentId?.(post.id, id) ?? id;
    let parentId: string | null = null;
    if (input.parent_id) {
      const comments = (await store.comments(spec.platform, post.id)) ?? [];
      const parent = comments.find((comment) => shown(comment.id) === input.parent_id);
      if (!parent) return notFound(c, "The post has no comment with this id.");
      parentId = parent.parent_id ?? parent.id;
    }
    const id = await store.addComment({
      postId: post.id,
      parentId,
      author: input.author,
      text: input.text,
    });
    return c.json(
      { id: shown(id), post_id: post.id, parent_id: parentId === null ? null : shown(parentId) },
      201,
    );
  })
  // A session for an account the operator created without tokens (the demo data, tests): what a connect
  // would have given it, a short-lived access token and its platform id, asked for by the sandbox adapter
  // before each call (src/platforms/sandbox/emulated.ts), so that side holds no emulator fact. Nothing is
  // stored; it answers only while SANDBOX is "true" or the adapters' own calls, in the shared space. Once
  // the handle's user removed the app (revoke), its implicit grant is gone too: 401 `token_revoked`, which
  // the adapter reports as the platform's revoked grant (the account expires; a reconnect gives it tokens of its own).
  .post("/:platform/accounts/:handle/session", async (c) => {
    const handle = readableHandle(c);
    if (handle === null) return notFound(c, "No such account.");
    const { platform } = specOf(c);
    if ((await sandboxStore(c.env, platform, null).revokedAt(handle)) !== null)
      return c.json(
        { error: { code: SESSION_REVOKED, message: "The user has revoked the application's access." } },
        401,
      );
    return c.json({
      access_token: await mintToken(c.env, platform, handle),
      platform_id: await sandboxPlatformId(platform, handle),
    });
  })
  .get("/:platform/media/:id", async (c) => {
    const id = c.req.param("id");
    if (!MEDIA_ID.test(id)) throw routeNotFound();
    const object = await c.env.MEDIA.get(`sandbox/${specOf(c).platform}/${id}`);
    if (!object) return notFound(c, "No media with this id.");
    return new Response(object.body, {
      headers: {
        "content-type": object.httpMetadata?.contentType ?? "application/octet-stream",
        "content-length": String(object.size),
        "x-content-type-options": "nosniff",
        "content-security-policy": "default-src 'none'; sandbox",
      },
    });
  });
