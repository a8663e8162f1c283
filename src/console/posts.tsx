// The posts pages: the user's posts (the REST list's query, filters and cursor; each row's targets with
// their errors and links; retry, delete, approve and reject through the REST routes' own functions), and a
// week calendar in a workspace's zone (calendar.ts does the date math).
import type { FC } from "hono/jsx";
import { accountsOfUser } from "../accounts/queries";
import { type Decision, decide } from "../approvals/decide";
import type { Database } from "../db/client";
import { POST_STATUSES, type PostStatus } from "../db/enums";
import type { Tenant } from "../db/tenancy";
import { notFound } from "../http/errors";
import { messagesByField } from "../http/messages";
import { publicOrigin } from "../lib/origin";
import { idParams } from "../lib/schemas";
import { toZonedIso } from "../lib/time";
import { type CalendarSlot, freeSlotsOfWorkspace } from "../posting-queues/queries";
import type { PresentedPost } from "../posts/present";
import { deletePost, filtersOfQuery, pageOfPosts, postOfUser } from "../posts/queries";
import { retryPost } from "../posts/retry";
import { listPostsQuery } from "../posts/schemas";
import { workspacesOfUser } from "../workspaces/queries";
import {
  addDays,
  dayStart,
  firstDay,
  isLocalDate,
  isoWeekOf,
  type LocalDate,
  localDateOf,
  weekFrom,
  weekQuery,
} from "./calendar";
import { FormErrors, Hidden, Layout, type Nav, ScopeSelects } from "./layout";
import { type Ctx, consoleRoutes, navOf, signedIn, tenantOf } from "./page-routes";

/** A console page of posts is shorter than the API's default (100): it renders every target of each. */
const PER_PAGE = "25";
/** The calendar reads one page of the week: the list's largest. */
const CALENDAR_MAX = 100;

type Workspace = { id: number; name: string; timezone: string };
type Account = { id: number; platform: string; username: string };

/** The user's workspaces and connected accounts, for the filters and the rows' account names. */
async function scopeOf(
  db: Database,
  tenant: Tenant,
): Promise<{ workspaces: Workspace[]; accounts: Account[] }> {
  const [workspaces, accounts] = await db.batch([workspacesOfUser(db, tenant), accountsOfUser(db, tenant)]);
  return { workspaces, accounts };
}

/** A link to the published post, only if it is a web address (it comes from the platform). */
const webLink = (url: string | null) => (url && /^https?:\/\//i.test(url) ? url : null);

const presenting = (c: Ctx) => ({
  env: c.env,
  origin: publicOrigin(c.env, c.req.url),
  includeComments: false,
});

/** How a status reads; a waiting post says what it waits for. */
const statusLabel = (status: PostStatus) => (status === "PENDING_APPROVAL" ? "Waiting for approval" : status);

/**
 * Approves or rejects the user's post at the version the page showed (`version`), with the form's note,
 * as the signed-in user; a changed or decided post is the API's 409 or 422 (the refusal page).
 */
async function decideInConsole(c: Ctx, decision: Decision) {
  const auth = signedIn(c);
  if (auth instanceof Response) return auth;
  const id = postId(c);
  const form = c.var.form ?? {};
  const version = Number(form.version);
  const note = typeof form.note === "string" ? form.note.trim().slice(0, 1000) : "";
  await decide(
    auth.db,
    decision,
    {
      post: postOfUser(auth.db, auth.tenant, id),
      postId: id,
      version: Number.isSafeInteger(version) && version > 0 ? version : 0,
      note: note || null,
      by: { type: "user", userId: auth.tenant.userId },
    },
    { env: c.env, origin: publicOrigin(c.env, c.req.url), queue: c.env.PUBLISH_QUEUE },
  );
  return c.redirect("/console/posts?status=PENDING_APPROVAL", 303);
}

/** The post id of a path, or the same 404 as another user's post. */
function postId(c: Ctx): number {
  const parsed = idParams.safeParse({ id: c.req.param("id") });
  if (!parsed.success) throw notFound("Post");
  return parsed.data.id;
}

/**
 * The list's query as the GET form sends it, turned into the REST list's: empty fields dropped (an
 * unset filter), the two dates made the bounds of those local days in the filtered workspace's zone
 * (UTC without one), so the API's schema checks the rest (strict: an unknown field is a 422).
 */
function listInput(query: Record<string, string>, workspaces: Workspace[]) {
  const input: Record<string, string> = { per_page: PER_PAGE };
  for (const [name, value] of Object.entries(query)) if (value !== "") input[name] = value;
  const zone = workspaces.find((w) => String(w.id) === input.workspace_id)?.timezone ?? "UTC";
  const { scheduled_from: from, scheduled_to: to } = input;
  if (from && isLocalDate(from)) input.scheduled_from = dayStart(from, zone).toISOString();
  if (to && isLocalDate(to))
    input.scheduled_to = new Date(dayStart(addDays(to, 1), zone).getTime() - 1).toISOString();
  return input;
}

/** The page links: the next one carries the cursor (as the API's `next_page_url`), the previous a number. */
function pageLinks(
  query: Record<string, string>,
  page: number,
  last: PresentedPost | undefined,
  more: boolean,
) {
  const kept = Object.entries(query).filter(
    ([name, value]) => value !== "" && name !== "page" && name !== "before_id",
  );
  const href = (extra: Record<string, string>) =>
    `/console/posts?${new URLSearchParams([...kept, ...Object.entries(extra)]).toString()}`;
  return {
    prev: page > 1 ? href({ page: String(page - 1) }) : null,
    next: more && last ? href({ page: String(page + 1), before_id: String(last.id) }) : null,
  };
}

export const postRoutes = consoleRoutes()
  .get("/posts", async (c) => {
    const auth = signedIn(c);
    if (auth instanceof Response) return auth;
    const { db, session } = auth;
    const scope = await scopeOf(db, auth.tenant);
    const query = c.req.query();
    const nav = await navOf(c, session);
    const parsed = listPostsQuery.safeParse(listInput(query, scope.workspaces));
    if (!parsed.success) {
      const errors = messagesByField(parsed.error.issues, query);
      return c.html(<PostsPage nav={nav} scope={scope} query={query} posts={[]} errors={errors} />, 422);
    }
    const { page, per_page, before_id } = parsed.data;
    const { data, total } = await pageOfPosts(
      db,
      tenantOf(c, session),
      { page, perPage: per_page, beforeId: before_id, filters: filtersOfQuery(parsed.data) },
      presenting(c),
    );
    const links = pageLinks(query, page, data.at(-1), page * per_page < total);
    return c.html(
      <PostsPage nav={nav} scope={scope} query={query} posts={data} total={total} links={links} />,
    );
  })
  .post("/posts/:id/retry", async (c) => {
    const auth = signedIn(c);
    if (auth instanceof Response) return auth;
    const { env } = c;
    await retryPost(auth.db, auth.tenant, postId(c), {
      env,
      origin: publicOrigin(env, c.req.url),
      queue: env.PUBLISH_QUEUE,
    });
    return c.redirect("/console/posts", 303);
  })
  .post("/posts/:id/approve", (c) => decideInConsole(c, "approve"))
  .post("/posts/:id/reject", (c) => decideInConsole(c, "reject"))
  .post("/posts/:id/delete", async (c) => {
    const auth = signedIn(c);
    if (auth instanceof Response) return auth;
    await deletePost(auth.db, auth.tenant, postId(c));
    return c.redirect("/console/posts", 303);
  })
  .get("/posts/calendar", async (c) => {
    const auth = signedIn(c);
    if (auth instanceof Response) return auth;
    const { db, session } = auth;
    const nav = await navOf(c, session);
    const workspaces: Workspace[] = await workspacesOfUser(db, tenantOf(c, session));
    const wanted = c.req.query("workspace_id");
    const workspace = wanted ? workspaces.find((w) => String(w.id) === wanted) : workspaces[0];
    if (wanted && !workspace) throw notFound("Workspace");
    if (!workspace) return c.html(<CalendarPage nav={nav} workspaces={[]} />);
    const today = localDateOf(new Date(), workspace.timezone);
    const first = firstDay({ week: c.req.query("week"), start: c.req.query("start") }, today);
    if ("error" in first) {
      const errors = { [first.error.field]: [first.error.message] };
      return c.html(
        <CalendarPage nav={nav} workspaces={workspaces} workspace={workspace} errors={errors} />,
        422,
      );
    }
    const week = weekFrom(first.start, workspace.timezone);
    const slots = await freeSlotsOfWorkspace(db, tenantOf(c, session), workspace.id, week);
    const { data, total } = await pageOfPosts(
      db,
      tenantOf(c, session),
      {
        page: 1,
        perPage: CALENDAR_MAX,
        // The window's bounds are both included: it ends 1 ms before the next week's first instant.
        filters: {
          workspaceId: workspace.id,
          scheduledFrom: week.from,
          scheduledTo: new Date(week.to.getTime() - 1),
        },
      },
      presenting(c),
    );
    return c.html(
      <CalendarPage
        nav={nav}
        workspaces={workspaces}
        workspace={workspace}
        week={{ ...week, today, posts: data, more: total > data.length, slots }}
      />,
    );
  });

// Views.

const excerpt = (post: PresentedPost) => {
  const text = post.content[0]?.text ?? "";
  return text.length > 140 ? `${text.slice(0, 139)}…` : text || "(no text)";
};

/** `2026-03-29 23:30 UTC+02:00`: the workspace's wall clock and its offset then, from the zoned ISO time. */
const wallTime = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC${iso.slice(19)}`;

type Links = { prev: string | null; next: string | null };

const PostRow: FC<{ post: PresentedPost; accounts: Map<number, Account>; csrf: string }> = ({
  post,
  accounts,
  csrf,
}) => (
  <li class="card">
    <h3>Post #{post.id}</h3>
    <p>{excerpt(post)}</p>
    <dl>
      <dt>Workspace</dt>
      <dd>{post.workspace.name}</dd>
      <dt>Scheduled</dt>
      <dd>
        {post.scheduled_at ? `${wallTime(post.scheduled_at)} (${post.workspace.timezone})` : "not scheduled"}
      </dd>
      <dt>Status</dt>
      <dd>
        <span class={`status status-${post.status.toLowerCase()}`}>{statusLabel(post.status)}</span>
        {` (version ${post.version})`}
      </dd>
    </dl>
    <ul class="targets">
      {post.platforms.map((row) => {
        const account = accounts.get(row.account_id);
        const link = webLink(row.post_url);
        return (
          <li>
            <strong>{row.platform}</strong> {account ? `@${account.username}` : `account #${row.account_id}`}:{" "}
            <span class={`status status-${row.status.toLowerCase()}`}>{statusLabel(row.status)}</span>
            {row.error && <span class="error"> {row.error.message}</span>}
            {link && (
              <>
                {" "}
                <a href={link} class="url">
                  {link}
                </a>
              </>
            )}
          </li>
        );
      })}
    </ul>
    {post.status === "PENDING_APPROVAL" && (
      <form
        method="post"
        action={`/console/posts/${post.id}/approve`}
        aria-label={`Decide on post #${post.id}`}
      >
        <Hidden csrf={csrf} />
        <input type="hidden" name="version" value={String(post.version)} />
        <label for={`note-${post.id}`}>Note (optional; when rejecting, say why)</label>
        <input type="text" id={`note-${post.id}`} name="note" maxlength={1000} />
        <div class="actions">
          <button type="submit" class="primary" aria-label={`Approve post #${post.id}`}>
            Approve
          </button>
          <button
            type="submit"
            formaction={`/console/posts/${post.id}/reject`}
            aria-label={`Reject post #${post.id}`}
          >
            Reject
          </button>
        </div>
      </form>
    )}
    <div class="actions">
      {post.status === "FAILED" && (
        <form method="post" action={`/console/posts/${post.id}/retry`}>
          <Hidden csrf={csrf} />
          <button type="submit" aria-label={`Retry post #${post.id}`}>
            Retry
          </button>
        </form>
      )}
    </div>
    <details>
      <summary>Delete post #{post.id}</summary>
      <p>The post, its platform rows, labels and comments are deleted; its media stay in the library.</p>
      <form method="post" action={`/console/posts/${post.id}/delete`}>
        <Hidden csrf={csrf} />
        <button type="submit" aria-label={`Confirm: delete post #${post.id}`}>
          Delete for good
        </button>
      </form>
    </details>
  </li>
);

const Filters: FC<{
  scope: { workspaces: Workspace[]; accounts: Account[] };
  query: Record<string, string>;
}> = ({ scope, query }) => (
  <form method="get" action="/console/posts" class="filters" aria-label="Filter posts">
    <label for="f-status">Status</label>
    <select id="f-status" name="status">
      <option value="">Any</option>
      {POST_STATUSES.map((status) => (
        <option value={status} selected={query.status === status}>
          {statusLabel(status)}
        </option>
      ))}
    </select>
    <ScopeSelects scope={scope} query={query} />
    <label for="f-from">Scheduled from (in the workspace's zone, UTC without one)</label>
    <input type="date" id="f-from" name="scheduled_from" value={query.scheduled_from ?? ""} />
    <label for="f-to">Scheduled to</label>
    <input type="date" id="f-to" name="scheduled_to" value={query.scheduled_to ?? ""} />
    <div class="actions">
      <button type="submit">Filter</button>
      <a href="/console/posts">Clear filters</a>
    </div>
  </form>
);

export const PostsPage: FC<{
  nav: NonNullable<Nav>;
  scope: { workspaces: Workspace[]; accounts: Account[] };
  query: Record<string, string>;
  posts: PresentedPost[];
  total?: number;
  links?: Links;
  errors?: Record<string, string[]>;
}> = ({ nav, scope, query, posts, total, links, errors }) => {
  const accounts = new Map(scope.accounts.map((a) => [a.id, a]));
  return (
    <Layout title="Posts" nav={nav} current="/console/posts">
      <h1>Posts</h1>
      <p>
        <a href="/console/posts/calendar">Week calendar</a>
      </p>
      <h2>Filters</h2>
      <FormErrors errors={errors} />
      <Filters scope={scope} query={query} />
      <h2>{total === undefined ? "Your posts" : `Your posts (${total})`}</h2>
      {posts.length === 0 ? (
        <p>No posts match.</p>
      ) : (
        <ul>
          {posts.map((post) => (
            <PostRow post={post} accounts={accounts} csrf={nav.csrf} />
          ))}
        </ul>
      )}
      {links && (links.prev || links.next) && (
        <nav aria-label="Pages" class="actions">
          {links.prev && <a href={links.prev}>Previous page</a>}
          {links.next && <a href={links.next}>Next page</a>}
        </nav>
      )}
    </Layout>
  );
};

/** `Monday 23 March`: a local date's name (the date itself, read in UTC: no zone shifts it). */
const dayName = new Intl.DateTimeFormat("en-GB", {
  weekday: "long",
  day: "numeric",
  month: "long",
  timeZone: "UTC",
});

type WeekView = ReturnType<typeof weekFrom> & {
  today: LocalDate;
  posts: PresentedPost[];
  more: boolean;
  /** The queues' free slots this week (what `queue: true` would take), in the workspace's zone. */
  slots: CalendarSlot[];
};

export const CalendarPage: FC<{
  nav: NonNullable<Nav>;
  workspaces: Workspace[];
  workspace?: Workspace;
  week?: WeekView;
  errors?: Record<string, string[]>;
}> = ({ nav, workspaces, workspace, week, errors }) => {
  const byDay = new Map<LocalDate, PresentedPost[]>();
  for (const post of week?.posts ?? []) {
    const day = post.scheduled_at!.slice(0, 10);
    byDay.set(day, [...(byDay.get(day) ?? []), post]);
  }
  for (const posts of byDay.values())
    posts.sort((a, b) => Date.parse(a.scheduled_at!) - Date.parse(b.scheduled_at!));
  const slotsByDay = new Map<LocalDate, Array<{ iso: string; names: string }>>();
  for (const slot of week?.slots ?? []) {
    const iso = toZonedIso(new Date(slot.at), workspace!.timezone);
    const names = slot.accounts.map((a) => `${a.username} (${a.platform})`).join(", ");
    slotsByDay.set(iso.slice(0, 10), [...(slotsByDay.get(iso.slice(0, 10)) ?? []), { iso, names }]);
  }
  const at = (query: string) => `/console/posts/calendar?workspace_id=${workspace?.id}&${query}`;
  return (
    <Layout title="Calendar" nav={nav} current="/console/posts">
      <h1>Calendar</h1>
      <p>
        <a href="/console/posts">All posts</a>
      </p>
      {!workspace ? (
        <p>No workspaces yet: posts are scheduled in a workspace.</p>
      ) : (
        <>
          <FormErrors errors={errors} />
          <form method="get" action="/console/posts/calendar" class="filters" aria-label="Choose a week">
            <label for="c-workspace">Workspace</label>
            <select id="c-workspace" name="workspace_id">
              {workspaces.map((w) => (
                <option value={String(w.id)} selected={w.id === workspace.id}>
                  {w.name}
                </option>
              ))}
            </select>
            <label for="c-week">Week</label>
            <input type="week" id="c-week" name="week" value={week ? isoWeekOf(week.start) : ""} />
            <div class="actions">
              <button type="submit">Show</button>
            </div>
          </form>
          {week && (
            <>
              <h2>
                {`${week.days[0]} to ${week.days[6]}`}, {workspace.timezone}
              </h2>
              <nav aria-label="Weeks" class="actions">
                <a href={at(weekQuery(addDays(week.start, -7)))}>Previous week</a>
                <a href={at(`week=${isoWeekOf(week.today)}`)}>This week</a>
                <a href={at(weekQuery(addDays(week.start, 7)))}>Next week</a>
              </nav>
              {week.more && (
                <p class="muted">
                  More posts are scheduled this week than one page shows: the list filtered by these dates has
                  them all.
                </p>
              )}
              <ol class="week">
                {week.days.map((day) => {
                  const posts = byDay.get(day) ?? [];
                  const isToday = day === week.today;
                  return (
                    <li class={isToday ? "day today" : "day"} aria-current={isToday ? "date" : undefined}>
                      <h3>
                        {dayName.format(new Date(`${day}T00:00:00Z`))}
                        {isToday && " (today)"}
                      </h3>
                      {posts.length === 0 ? (
                        <p class="muted">Nothing scheduled.</p>
                      ) : (
                        <ul>
                          {posts.map((post) => (
                            <li>
                              <time datetime={post.scheduled_at!}>{post.scheduled_at!.slice(11, 16)}</time>{" "}
                              <span class={`status status-${post.status.toLowerCase()}`}>
                                {statusLabel(post.status)}
                              </span>{" "}
                              {excerpt(post)} <span class="muted">(post #{post.id})</span>
                            </li>
                          ))}
                        </ul>
                      )}
                      {(slotsByDay.get(day) ?? []).length > 0 && (
                        <>
                          <h4 class="muted">Free queue slots</h4>
                          <ul class="slots">
                            {slotsByDay.get(day)!.map((slot) => (
                              <li>
                                <time datetime={slot.iso}>{slot.iso.slice(11, 16)}</time> {slot.names}
                              </li>
                            ))}
                          </ul>
                        </>
                      )}
                    </li>
                  );
                })}
              </ol>
            </>
          )}
        </>
      )}
    </Layout>
  );
};
