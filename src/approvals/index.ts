// Approvals (ARCHITECTURE "Approvals"), under /api/v1/posts: approve and reject a post waiting for
// approval (ability `approvals`), its review history (ability `posts`), and review links for a reviewer
// without an account (ability `approvals`).
import type { Context } from "hono";
import type { ApiEnv } from "../http/env";
import { jsonBody, jsonContent } from "../http/openapi";
import { apiRoutes } from "../http/route";
import { createRouter } from "../http/router";
import { publicOrigin } from "../lib/origin";
import { idParams } from "../lib/schemas";
import { postOfUser } from "../posts/queries";
import { reviewerOf } from "../posts/reviews";
import type { SaveContext } from "../posts/save";
import { postSchema } from "../posts/schemas";
import { type Decision, decide } from "./decide";
import { signReviewLink } from "./links";
import { reviewsOfPost, waitingVersion } from "./reviews";
import {
  approveBody,
  REVIEW_LINK_DEFAULT_SECONDS,
  rejectBody,
  reviewLinkBody,
  reviewLinkSchema,
  reviewsSchema,
} from "./schemas";

const approving = apiRoutes("approvals");
const reading = apiRoutes("posts");
const tags = ["Approvals"];

const saving = (c: Context<ApiEnv>): SaveContext => ({
  env: c.env,
  origin: publicOrigin(c.env, c.req.url),
  queue: c.env.PUBLISH_QUEUE,
});

const EXACTLY_ONCE =
  "`version` is the post's `version` the reviewer saw: if the post changed since, the answer is a 409 and nothing changes (read it again). A post not waiting for approval (PENDING_APPROVAL) is a 422 on `status`. Of parallel decisions on one version exactly one succeeds; the review history and the webhooks tell it once.";

/** Approves or rejects the tenant's post `id` as the key's decision. */
async function decideByKey(
  c: Context<ApiEnv>,
  decision: Decision,
  id: number,
  version: number,
  note?: string,
) {
  const { db, principal } = c.var;
  return decide(
    db,
    decision,
    { post: postOfUser(db, principal, id), postId: id, version, note, by: reviewerOf(principal) },
    saving(c),
  );
}

export const approvalsRouter = createRouter<ApiEnv>()
  .openapi(
    approving({
      method: "post",
      operationId: "approvePost",
      earlyReads: true,
      path: "/{id}/approve",
      tags,
      summary: "Approve a post",
      description: [
        "Approves a post waiting for approval (PENDING_APPROVAL): it becomes SCHEDULED and is published at its `scheduled_at`. A post whose time has come (`publish_now`, or a `scheduled_at` that passed while it waited) is published at once: the answer shows it PUBLISHING. Fires `post.approved`.",
        EXACTLY_ONCE,
      ].join("\n\n"),
      request: { params: idParams, body: jsonBody(approveBody) },
      responses: { 200: jsonContent(postSchema, "The post, SCHEDULED or PUBLISHING.") },
      errors: [404, 409],
    }),
    async (c) => {
      const { version, note } = c.req.valid("json");
      return c.json(await decideByKey(c, "approve", c.req.valid("param").id, version, note), 200);
    },
  )
  .openapi(
    approving({
      method: "post",
      operationId: "rejectPost",
      earlyReads: true,
      path: "/{id}/reject",
      tags,
      summary: "Reject a post",
      description: [
        "Rejects a post waiting for approval: it is a DRAFT again (its `scheduled_at` and any queue slot released), the `reason` kept in its review history. Edit it and give it a time to submit it again. Fires `post.rejected`.",
        EXACTLY_ONCE,
      ].join("\n\n"),
      request: { params: idParams, body: jsonBody(rejectBody) },
      responses: { 200: jsonContent(postSchema, "The post, DRAFT.") },
      errors: [404, 409],
    }),
    async (c) => {
      const { version, reason } = c.req.valid("json");
      return c.json(await decideByKey(c, "reject", c.req.valid("param").id, version, reason), 200);
    },
  )
  .openapi(
    reading({
      method: "get",
      operationId: "listPostReviews",
      path: "/{id}/reviews",
      tags,
      summary: "List a post's reviews",
      description:
        "The post's review history, oldest first: each submission for approval, edit that made it wait again, approval and rejection, with the version it concerned, the note, who (`by`: an API key by its name, a review link by its label, a console user by name) and when.",
      request: { params: idParams },
      responses: { 200: jsonContent(reviewsSchema, "The review history.") },
      errors: [404],
    }),
    async (c) => {
      const { db, principal } = c.var;
      return c.json({ data: await reviewsOfPost(db, principal, c.req.valid("param").id) }, 200);
    },
  )
  .openapi(
    approving({
      method: "post",
      operationId: "createReviewLink",
      earlyReads: true,
      path: "/{id}/review-links",
      tags,
      summary: "Create a review link",
      description:
        "A link for a reviewer without an account or key: a page showing the post as each of its platforms will publish it (the thread item by item, media, each row's settings), with Approve and Reject buttons and a note. It is signed (nothing in it can be changed), bound to the post's current `version` (once the post changes, the page says so and decides nothing), works until `expires_in` seconds from now (7 days by default, 30 at most), and takes one decision: the first Approve or Reject wins, as a `POST /approve` would. The review history names the decision by the link's `label` (else `review link`). The post must be waiting for approval (422 otherwise). Anyone holding the URL can decide: send it only to the reviewer.",
      request: { params: idParams, body: jsonBody(reviewLinkBody) },
      responses: { 201: jsonContent(reviewLinkSchema, "The link.") },
      errors: [404],
    }),
    async (c) => {
      const { db, principal } = c.var;
      const id = c.req.valid("param").id;
      const { expires_in = REVIEW_LINK_DEFAULT_SECONDS, label } = c.req.valid("json");
      const version = await waitingVersion(db, principal, id);
      const url = await signReviewLink(c.env, publicOrigin(c.env, c.req.url), {
        postId: id,
        version,
        expires: Math.floor(Date.now() / 1000) + expires_in,
        label: label ?? null,
      });
      return c.json({ url, expires_in }, 201);
    },
  );
