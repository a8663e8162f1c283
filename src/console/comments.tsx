// The comments page: the inbox of every comment on the user's accounts' posts (the REST list's query,
// filters and cursor), each with its account's reply, hide/unhide and delete where its `actions` offer
// them, through the REST routes' own functions (src/comments/actions.ts). A reply is published once per
// rendered form: the form carries a random key that claims an idempotency record in the user's
// Coordinator, as the REST route's `Idempotency-Key` does, so a form sent twice publishes once.
import { inArray } from "drizzle-orm";
import type { FC } from "hono/jsx";
import { accountsOfUser } from "../accounts/queries";
import { deleteComment, hideComment, replyToComment } from "../comments/actions";
import { presentComment } from "../comments/present";
import { listComments } from "../comments/queries";
import { listCommentsQuery, type PresentedComment, replyBody } from "../comments/schemas";
import type { BeginIdempotent } from "../coordinator/idempotency";
import { type BeginResult, userCoordinator } from "../coordinator/names";
import type { Database } from "../db/client";
import { PLATFORMS } from "../db/enums";
import { postPlatforms } from "../db/schema";
import type { Tenant } from "../db/tenancy";
import { conflict, invalidField, invalidInput, notFound } from "../http/errors";
import { messagesByField } from "../http/messages";
import { randomToken, sha256Hex } from "../lib/crypto";
import { idParams } from "../lib/schemas";
import { toZonedIso } from "../lib/time";
import { workspacesOfUser } from "../workspaces/queries";
import { dayStart, isLocalDate } from "./calendar";
import { FormErrors, Hidden, Layout, type Nav, ScopeSelects } from "./layout";
import { type Ctx, consoleRoutes, navOf, signedIn } from "./page-routes";

/** A console page of comments: shorter than the API's default leaves room for each reply form. */
const PER_PAGE = "25";
/** The reply form's key: 16 random bytes, base64url (randomToken). */
const REPLY_KEY = /^[A-Za-z0-9_-]{22}$/;

type Workspace = { id: number; name: string; timezone: string };
type Account = { id: number; platform: string; username: string };
type Scope = { workspaces: Workspace[]; accounts: Account[] };
/** A listed comment as the API presents it, with what the page adds: received, replied, its post's link. */
type Item = PresentedComment & { received_at: string; replied: boolean; post_url: string | null };

/** A web address from a platform, or null (a `javascript:` or other scheme is never made a link). */
const webLink = (url: string | null) => (url && /^https?:\/\//i.test(url) ? url : null);

/** The comment id of a path, or the same 404 as another user's comment. */
function commentId(c: Ctx): number {
  const parsed = idParams.safeParse({ id: c.req.param("id") });
  if (!parsed.success) throw notFound("Comment");
  return parsed.data.id;
}

/**
 * The list's query as the GET form sends it, turned into the REST list's: empty fields dropped, `since`
 * (a local day) made that day's first instant in the filtered workspace's zone (UTC without one); the
 * API's schema checks the rest (strict: an unknown field is a 422).
 */
function listInput(query: Record<string, string>, workspaces: Workspace[]) {
  const input: Record<string, string> = { per_page: PER_PAGE };
  for (const [name, value] of Object.entries(query)) if (value !== "") input[name] = value;
  const zone = workspaces.find((w) => String(w.id) === input.workspace_id)?.timezone ?? "UTC";
  if (input.since && isLocalDate(input.since)) input.since = dayStart(input.since, zone).toISOString();
  return input;
}

/**
 * The published address of each (post, account) of the page, from rows of the user's own comments only
 * (their post and account ids came from the scoped list). One statement.
 */
async function postLinks(db: Database, items: { post_id: number; account_id: number }[]) {
  if (items.length === 0) return new Map<string, string>();
  const rows = await db
    .select({ postId: postPlatforms.postId, accountId: postPlatforms.accountId, url: postPlatforms.postUrl })
    .from(postPlatforms)
    .where(inArray(postPlatforms.postId, [...new Set(items.map((i) => i.post_id))]));
  const links = new Map<string, string>();
  for (const row of rows) {
    const link = webLink(row.url);
    if (link) links.set(`${row.postId}:${row.accountId}`, link);
  }
  return links;
}

/**
 * Runs `publish` once for the form's key: the first request with it claims a record in the user's
 * Coordinator (the REST route's `Idempotency-Key` records, src/coordinator/idempotency.ts, under a
 * `console:` prefix so no API client's key collides) and runs; a repeat learns the first finished and
 * runs nothing, or is refused (409) while the first runs. A failure releases the key: nothing was
 * published (or the pending reply row finds it on the next attempt, actions.ts), so the same form may be
 * sent again. The answer is not kept: a form's answer is a redirect, the same for every repeat.
 */
async function onceForKey(c: Ctx, tenant: Tenant, claim: BeginIdempotent, publish: () => Promise<unknown>) {
  const coordinator = c.env.COORDINATOR.getByName(userCoordinator(tenant));
  const begun = await c.var.meter.gate<BeginResult>(async () => {
    const answer: BeginResult = await coordinator.beginIdempotent(claim);
    return answer;
  });
  if (begun.kind === "replay" || begun.kind === "unreplayable") return;
  if (begun.kind === "mismatch")
    throw invalidField("reply_key", "This form was already sent with another text: reload the page.");
  if (begun.kind !== "proceed")
    throw conflict("This reply is still being sent: reload the comments page in a moment to see it.");
  const { token } = begun;
  try {
    await publish();
  } catch (error) {
    await c.var.meter.gate(() => coordinator.releaseIdempotent(claim.key, token)).catch(() => undefined);
    throw error;
  }
  // A record not finished stays in flight: repeats are refused until it expires, never run again.
  await c.var.meter
    .gate(() => coordinator.finishIdempotent({ key: claim.key, token, status: 303 }))
    .catch(() => undefined);
}

export const commentRoutes = consoleRoutes()
  .get("/comments", async (c) => {
    const auth = signedIn(c);
    if (auth instanceof Response) return auth;
    const { db, session, tenant } = auth;
    const [workspaces, accounts] = await db.batch([workspacesOfUser(db, tenant), accountsOfUser(db, tenant)]);
    const scope: Scope = { workspaces, accounts };
    const query = c.req.query();
    const nav = await navOf(c, session);
    const parsed = listCommentsQuery.safeParse(listInput(query, workspaces));
    if (!parsed.success) {
      const errors = messagesByField(parsed.error.issues, query);
      return c.html(<CommentsPage nav={nav} scope={scope} query={query} items={[]} errors={errors} />, 422);
    }
    const { rows, nextCursor } = await listComments(db, tenant, parsed.data);
    const links = await postLinks(
      db,
      rows.map(({ comment }) => ({ post_id: comment.postId, account_id: comment.accountId })),
    );
    const items: Item[] = rows.map(({ comment, timezone }) => ({
      ...presentComment(comment, timezone),
      received_at: toZonedIso(comment.receivedAt, timezone),
      replied: comment.repliedAt !== null,
      post_url: links.get(`${comment.postId}:${comment.accountId}`) ?? null,
    }));
    const kept = Object.entries(query).filter(([name, value]) => value !== "" && name !== "cursor");
    const next = nextCursor
      ? `/console/comments?${new URLSearchParams([...kept, ["cursor", nextCursor]]).toString()}`
      : null;
    // Each reply form its own key: sending one form twice is one reply; two forms are two.
    const keys = new Map(items.map((item) => [item.id, randomToken(16)]));
    return c.html(
      <CommentsPage nav={nav} scope={scope} query={query} items={items} next={next} keys={keys} />,
    );
  })
  .post("/comments/:id/reply", async (c) => {
    const auth = signedIn(c);
    if (auth instanceof Response) return auth;
    const { db } = auth;
    const id = commentId(c);
    const form = c.var.form ?? {};
    const body = replyBody.safeParse({ text: form.text });
    if (!body.success) throw invalidInput(body.error, { text: form.text });
    const key = form.reply_key;
    if (typeof key !== "string" || !REPLY_KEY.test(key))
      throw invalidField("reply_key", "The reply form is incomplete: reload the page and send it again.");
    const { text } = body.data;
    const request = `/console/comments/${id}/reply`;
    const claim = {
      key: `console:${key}`,
      fingerprint: await sha256Hex(JSON.stringify(["POST", request, text])),
      request: `POST ${request}`,
    };
    await onceForKey(c, auth.tenant, claim, () => replyToComment(c.env, db, auth.tenant, id, text));
    return c.redirect(`/console/comments#comment-${id}`, 303);
  })
  .post("/comments/:id/hide", async (c) => {
    const auth = signedIn(c);
    if (auth instanceof Response) return auth;
    const id = commentId(c);
    await hideComment(c.env, auth.db, auth.tenant, id, true);
    return c.redirect(`/console/comments#comment-${id}`, 303);
  })
  .post("/comments/:id/unhide", async (c) => {
    const auth = signedIn(c);
    if (auth instanceof Response) return auth;
    const id = commentId(c);
    await hideComment(c.env, auth.db, auth.tenant, id, false);
    return c.redirect(`/console/comments#comment-${id}`, 303);
  })
  .post("/comments/:id/delete", async (c) => {
    const auth = signedIn(c);
    if (auth instanceof Response) return auth;
    await deleteComment(c.env, auth.db, auth.tenant, commentId(c));
    return c.redirect("/console/comments", 303);
  });

// Views.

/** `2026-03-29 23:30 UTC+02:00`: the workspace's wall clock and its offset then, from the zoned ISO time. */
const wallTime = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC${iso.slice(19)}`;

const contactHandle = (item: Item) => {
  const username = item.contact?.username;
  return typeof username === "string" && username !== "" ? ` (@${username})` : "";
};

const CommentCard: FC<{
  item: Item;
  replies: Map<number, Item[]>;
  accounts: Map<number, Account>;
  keys: Map<number, string>;
  csrf: string;
}> = ({ item, replies, accounts, keys, csrf }) => {
  const account = accounts.get(item.account_id);
  const link = webLink(item.url);
  const under = replies.get(item.id) ?? [];
  const name = `comment #${item.id}`;
  return (
    <li class="card" id={`comment-${item.id}`}>
      <h3>
        {item.is_own ? "Your account's reply" : item.author_name}
        {item.is_own ? "" : contactHandle(item)}
      </h3>
      <p class="comment-text">{item.content}</p>
      <dl>
        <dt>Platform</dt>
        <dd>{item.platform}</dd>
        <dt>Account</dt>
        <dd>{account ? `@${account.username}` : `account #${item.account_id}`}</dd>
        <dt>On</dt>
        <dd>
          {item.post_url ? (
            <a href={item.post_url} class="url">
              post #{item.post_id}
            </a>
          ) : (
            <a href={`/console/posts?before_id=${item.post_id + 1}`}>post #{item.post_id}</a>
          )}
          {item.parent_id !== null && !item.is_own && ` (answering comment #${item.parent_id})`}
        </dd>
        <dt>Received</dt>
        <dd>{wallTime(item.received_at)}</dd>
        <dt>State</dt>
        <dd>
          {[
            item.is_own ? "written by the account" : null,
            item.hidden ? "hidden" : "visible",
            item.replied ? "replied" : null,
            item.platform_comment_id === null ? "still being sent" : null,
          ]
            .filter((s) => s !== null)
            .join(", ")}
        </dd>
      </dl>
      {link && (
        <p>
          <a href={link} class="url" aria-label={`View on ${item.platform}: ${name}`}>
            View on {item.platform}
          </a>
        </p>
      )}
      {item.actions.includes("reply") && (
        <form method="post" action={`/console/comments/${item.id}/reply`}>
          <Hidden csrf={csrf} />
          <input type="hidden" name="reply_key" value={keys.get(item.id) ?? ""} />
          <label for={`reply-${item.id}`}>Reply to {name}</label>
          <textarea id={`reply-${item.id}`} name="text" rows={2} required />
          <div class="actions">
            <button type="submit" aria-label={`Send reply to ${name}`}>
              Send reply
            </button>
          </div>
        </form>
      )}
      {item.actions.includes("hide") && (
        <div class="actions">
          <form method="post" action={`/console/comments/${item.id}/${item.hidden ? "unhide" : "hide"}`}>
            <Hidden csrf={csrf} />
            <button type="submit" aria-label={`${item.hidden ? "Unhide" : "Hide"} ${name}`}>
              {item.hidden ? "Unhide" : "Hide"}
            </button>
          </form>
        </div>
      )}
      {item.actions.includes("delete") && (
        <details>
          <summary>Delete {name}</summary>
          <p>It is deleted on {item.platform} too; its replies stay.</p>
          <form method="post" action={`/console/comments/${item.id}/delete`}>
            <Hidden csrf={csrf} />
            <button type="submit" aria-label={`Delete for good: ${name}`}>
              Delete for good
            </button>
          </form>
        </details>
      )}
      {under.length > 0 && (
        <ul class="replies" aria-label={`Replies to ${name}`}>
          {under.map((reply) => (
            <CommentCard item={reply} replies={replies} accounts={accounts} keys={keys} csrf={csrf} />
          ))}
        </ul>
      )}
    </li>
  );
};

const flagOptions = (field: string, query: Record<string, string>, yes: string, no: string) => (
  <>
    <option value="">Any</option>
    <option value="true" selected={query[field] === "true"}>
      {yes}
    </option>
    <option value="false" selected={query[field] === "false"}>
      {no}
    </option>
  </>
);

const Filters: FC<{ scope: Scope; query: Record<string, string> }> = ({ scope, query }) => (
  <form method="get" action="/console/comments" class="filters" aria-label="Filter comments">
    <ScopeSelects scope={scope} query={query} />
    <label for="f-platform">Platform</label>
    <select id="f-platform" name="platform">
      <option value="">Any</option>
      {PLATFORMS.map((platform) => (
        <option value={platform} selected={query.platform === platform}>
          {platform}
        </option>
      ))}
    </select>
    <label for="f-since">Written since (a day in the workspace's zone, UTC without one)</label>
    <input type="date" id="f-since" name="since" value={query.since ?? ""} />
    <label for="f-hidden">Hidden</label>
    <select id="f-hidden" name="hidden">
      {flagOptions("hidden", query, "Hidden only", "Visible only")}
    </select>
    <label for="f-replied">Replied</label>
    <select id="f-replied" name="replied">
      {flagOptions("replied", query, "Replied only", "Not replied")}
    </select>
    {query.post_id && <input type="hidden" name="post_id" value={query.post_id} />}
    <div class="actions">
      <button type="submit">Filter</button>
      <a href="/console/comments">Clear filters</a>
    </div>
  </form>
);

export const CommentsPage: FC<{
  nav: NonNullable<Nav>;
  scope: Scope;
  query: Record<string, string>;
  items: Item[];
  next?: string | null;
  keys?: Map<number, string>;
  errors?: Record<string, string[]>;
}> = ({ nav, scope, query, items, next, keys = new Map(), errors }) => {
  const accounts = new Map(scope.accounts.map((a) => [a.id, a]));
  // A reply shows under its comment when both are on the page (oldest reply first); else on its own.
  const onPage = new Set(items.map((item) => item.id));
  const replies = new Map<number, Item[]>();
  for (const item of [...items].reverse())
    if (item.parent_id !== null && onPage.has(item.parent_id))
      replies.set(item.parent_id, [...(replies.get(item.parent_id) ?? []), item]);
  const top = items.filter((item) => item.parent_id === null || !onPage.has(item.parent_id));
  return (
    <Layout title="Comments" nav={nav} current="/console/comments">
      <h1>Comments</h1>
      <p class="muted">
        Comments on your accounts' published posts, newest first, read with each analytics sync.
      </p>
      <h2>Filters</h2>
      <FormErrors errors={errors} />
      <Filters scope={scope} query={query} />
      <h2>Inbox</h2>
      {top.length === 0 ? (
        <p>No comments match.</p>
      ) : (
        <ul>
          {top.map((item) => (
            <CommentCard item={item} replies={replies} accounts={accounts} keys={keys} csrf={nav.csrf} />
          ))}
        </ul>
      )}
      {(query.cursor || next) && (
        <nav aria-label="Pages" class="actions">
          {query.cursor && <a href="/console/comments">First page</a>}
          {next && <a href={next}>Next page</a>}
        </nav>
      )}
    </Layout>
  );
};
