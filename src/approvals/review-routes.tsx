// GET and POST /review/{post}?v=&exp=&l=&sig=: the review page of a review link (links.ts) and its
// decision. Public: the signed link is the credential (no key, no session). A tampered link is a 403
// page, an expired one a 410, a post gone a 404, one changed or decided since the link was made a 409
// page that decides nothing. The POST must come from a page of this origin (`Origin`) and carry the form's
// `csrf`, an HMAC bound to the link; the decision is the API's own (decide.ts), by `{type: "link"}`.
import { eq, inArray } from "drizzle-orm";
import type { Context } from "hono";
import { accounts, postPlatforms, posts } from "../db/schema";
import { formBodyLimit } from "../http/body-limit";
import type { DbEnv } from "../http/env";
import { ApiError } from "../http/errors";
import { pageHeaders } from "../http/page-headers";
import { createRouter } from "../http/router";
import { publicOrigin } from "../lib/origin";
import { assemblePosts, postStatements } from "../posts/load";
import { presentPosts } from "../posts/present";
import { decide } from "./decide";
import { type ReviewLink, reviewCsrf, reviewCsrfMatches, verifyReviewLink } from "./links";
import { MessagePage, ReviewPage } from "./review-page";

type Ctx = Context<DbEnv>;

/** The console's page headers: no script, never framed or cached, forms posting only here. */
const HEADERS = pageHeaders();

const page = (c: Ctx, status: 200 | 400 | 403 | 404 | 409 | 410, title: string, message: string) =>
  c.html(<MessagePage title={title} message={message} />, status, HEADERS);

const NOT_VALID = "This review link is not valid: it may have been copied incompletely. Ask for a new one.";
const EXPIRED = "This review link has expired. Ask for a new one.";
const GONE = "This post no longer exists.";
const CHANGED = (status: string, version: number, link: ReviewLink) =>
  status !== "PENDING_APPROVAL"
    ? "This post is no longer waiting for approval: it was decided, or withdrawn. This link decides nothing."
    : `This post changed since the link was made (it is at version ${version}, the link is for version ${link.version}). This link decides nothing: ask for a new one.`;

/** The link of the request, checked; or the page that refuses it. */
async function linkOf(c: Ctx): Promise<{ link: ReviewLink; sig: string } | Response> {
  const checked = await verifyReviewLink(c.env, c.req.param("id") ?? "", c.req.query());
  if (checked.kind === "invalid") return page(c, 403, "Link not valid", NOT_VALID);
  if (checked.kind === "expired") return page(c, 410, "Link expired", EXPIRED);
  return checked;
}

const origin = (c: Ctx) => publicOrigin(c.env, c.req.url);

export const reviewRouter = createRouter<DbEnv>()
  .get("/:id", async (c) => {
    const checked = await linkOf(c);
    if (checked instanceof Response) return checked;
    const { link, sig } = checked;
    const db = c.var.shards.of(link.postId);
    const ids = db.select({ id: posts.id }).from(posts).where(eq(posts.id, link.postId));
    const [postRows, handles] = await db.batch([
      ...postStatements(db, ids, false),
      db
        .select({ id: accounts.id, username: accounts.username })
        .from(accounts)
        .where(
          inArray(
            accounts.id,
            db
              .select({ id: postPlatforms.accountId })
              .from(postPlatforms)
              .where(eq(postPlatforms.postId, link.postId)),
          ),
        ),
    ]);
    const [post] = await presentPosts(assemblePosts([postRows]), {
      env: c.env,
      origin: origin(c),
      includeComments: false,
    });
    if (!post) return page(c, 404, "Post not found", GONE);
    if (post.status !== "PENDING_APPROVAL" || post.version !== link.version)
      return page(c, 409, "Nothing to decide", CHANGED(post.status, post.version, link));
    const url = new URL(c.req.url);
    return c.html(
      <ReviewPage
        post={post}
        handles={new Map(handles.map((a) => [a.id, a.username]))}
        label={link.label}
        action={`${url.pathname}${url.search}`}
        csrf={await reviewCsrf(c.env, sig)}
      />,
      200,
      HEADERS,
    );
  })
  .post("/:id", async (c) => {
    if (c.req.header("origin") !== origin(c))
      return page(c, 403, "Refused", "This form must be sent from its own page.");
    const checked = await linkOf(c);
    if (checked instanceof Response) return checked;
    const { link, sig } = checked;
    await formBodyLimit(c, async () => {});
    const form = await c.req.parseBody().catch(() => null);
    if (!form) return page(c, 400, "Refused", "The form could not be read.");
    const { csrf, decision, note } = form;
    if (typeof csrf !== "string" || !(await reviewCsrfMatches(c.env, sig, csrf)))
      return page(c, 403, "Refused", "This form must be sent from its own page.");
    if (decision !== "approve" && decision !== "reject")
      return page(c, 400, "Refused", "Choose Approve or Reject.");
    const text = typeof note === "string" ? note.trim().slice(0, 1000) : "";
    const db = c.var.shards.of(link.postId);
    try {
      const post = await decide(
        db,
        decision,
        {
          post: eq(posts.id, link.postId),
          postId: link.postId,
          version: link.version,
          note: text || null,
          by: { type: "link", name: link.label ?? "review link" },
        },
        { env: c.env, origin: origin(c), queue: c.env.PUBLISH_QUEUE },
      );
      return decision === "reject"
        ? page(c, 200, "Rejected", "Rejected: the post is a draft again. Thank you.")
        : page(
            c,
            200,
            "Approved",
            post.status === "PUBLISHING"
              ? "Approved: the post is being published now. Thank you."
              : `Approved: the post will be published at ${post.scheduled_at}. Thank you.`,
          );
    } catch (error) {
      if (!(error instanceof ApiError) || error.status >= 500) throw error;
      if (error.status === 404) return page(c, 404, "Post not found", GONE);
      return page(
        c,
        409,
        "Nothing to decide",
        "This post was decided already, or changed since the link was made. This link decides nothing.",
      );
    }
  });
