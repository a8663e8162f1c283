// Posts: list (paginated, every accessible workspace), create (201), its dry run (validate), get, update,
// retry, delete.
// Ability `posts`. The router parses, calls the posts modules and answers; the rules live beside it.
import type { Context } from "hono";
import type { Platform } from "../db/enums";
import type { ApiEnv } from "../http/env";
import { jsonBody, jsonContent } from "../http/openapi";
import { nextCursorAfter, paginated } from "../http/pagination";
import { apiRoutes } from "../http/route";
import { createRouter } from "../http/router";
import { publicOrigin } from "../lib/origin";
import { idParams, messageSchema } from "../lib/schemas";
import { lookupAdapter } from "../platforms";
import type { PresentContext } from "./present";
import { deletePost, filtersOfQuery, loadPost, pageOfPosts } from "./queries";
import { retryPost } from "./retry";
import { createPost, type SaveContext, updatePost } from "./save";
import {
  createPostBody,
  getPostQuery,
  listPostsQuery,
  postPageSchema,
  postSchema,
  postValidationSchema,
  updatePostBody,
} from "./schemas";
import { validatePost } from "./validate";

const route = apiRoutes("posts");

const tags = ["Posts"];

const STATUSES =
  "A post is a DRAFT (no `scheduled_at`), PENDING_APPROVAL (in a workspace whose `approval` is `required`, a post with a time waits for approval: `POST /api/v1/posts/{id}/approve`; it is never published before), SCHEDULED (published within seconds of `scheduled_at`), PUBLISHING (queued or being published: `publish_now`, or a schedule that came due), then PUBLISHED or FAILED. Each platform row carries its own status; once PUBLISHED, its `platform_post_id`, `post_url` and metrics in `analytics`; after a failure, the platform's `error` (`{code, message}`). A post is PUBLISHING while any row is, PUBLISHED when every row is, and FAILED when none is publishing and one failed (the rows tell which).";

const SETTINGS =
  "`settings` is keyed by platform (`twitter`, `tiktok`, `youtube`, `pinterest`, `instagram`, `facebook`, `linkedin`, `threads`); each platform's object is validated strictly and applied to the post's rows of that platform, every key it leaves out taking its default, so each row's `settings` in the answer is complete.";

const REPEAT =
  "`repeatable: true` publishes the post `repeatable_times` times, `repeatable_gap` `repeatable_gap_unit` apart (days, weeks and months on the workspace's calendar; a slot that has already passed is skipped); the three fields are required with it and refused without it. Between occurrences the post and its rows are SCHEDULED again, `scheduled_at` naming the next one, and `remaining_posts` counts the occurrences left. An occurrence that fails on any account leaves the post FAILED and the repeat paused until a retry publishes the failed rows.";

const AUTO_PLUG =
  "`auto_plug` posts one follow-up reply with `text` once the published post's `metric` (likes by default) reaches `threshold`.";

/** How answers are rendered: media links are signed for the service's public origin. */
const links = (c: Context<ApiEnv>) => ({ env: c.env, origin: publicOrigin(c.env, c.req.url) });
const presenting = (c: Context<ApiEnv>, includeComments: boolean): PresentContext => ({
  ...links(c),
  includeComments,
});
const saving = (c: Context<ApiEnv>): SaveContext => ({ ...links(c), queue: c.env.PUBLISH_QUEUE });

export const postsRouter = createRouter<ApiEnv>()
  .openapi(
    route({
      method: "get",
      operationId: "listPosts",
      path: "/",
      tags,
      summary: "List posts",
      description: `The posts of every workspace the key's user can access, newest first, 100 per page unless \`per_page\` says otherwise. Walk a long list through \`next_page_url\`: it carries \`before_id\`, so every page costs what page 1 does, however deep.\n\nFilters, combined with AND and carried by every page link: \`status\`, \`workspace_id\`, \`account_id\` (posts with a row on that account), \`scheduled_from\` and \`scheduled_to\` (ISO 8601 with an offset, bounds included; drafts never match a window). With a filter, \`total\` counts the posts that match. A query parameter the list does not know is a 422, not ignored.\n\n${STATUSES}`,
      request: { query: listPostsQuery },
      responses: { 200: jsonContent(postPageSchema, "One page of posts.") },
    }),
    async (c) => {
      const { db, principal } = c.var;
      const query = c.req.valid("query");
      const { page, per_page, include_comments, before_id } = query;
      const ctx = presenting(c, include_comments);
      const { data, total } = await pageOfPosts(
        db,
        principal,
        { page, perPage: per_page, beforeId: before_id, filters: filtersOfQuery(query) },
        ctx,
      );
      const request = { requestUrl: c.req.url, origin: ctx.origin, page, perPage: per_page };
      return c.json(paginated(request, data, total, nextCursorAfter(data.at(-1))), 200);
    },
  )
  .openapi(
    route({
      method: "post",
      operationId: "createPost",
      earlyReads: true,
      path: "/",
      idempotent: true,
      tags,
      summary: "Create a post",
      description: [
        "Creates a post in `workspace_id` for the given accounts of that workspace, one platform row per account. Without `scheduled_at` or `publish_now` it is a DRAFT; with `scheduled_at` it is SCHEDULED; with `publish_now` it is PUBLISHING and queued at once. In a workspace whose `approval` is `required`, a post with `scheduled_at`, `publish_now` or `queue` is PENDING_APPROVAL instead, and waits for `POST /api/v1/posts/{id}/approve`. Accounts, labels and media of another workspace, and failed media, are refused by index (`accounts.1`, `content.0.media.2`).",
        STATUSES,
        SETTINGS,
        REPEAT,
        AUTO_PLUG,
      ].join("\n\n"),
      request: { body: jsonBody(createPostBody) },
      responses: { 201: jsonContent(postSchema, "The post.") },
      errors: [404],
    }),
    async (c) => {
      const { db, principal } = c.var;
      const post = await createPost(db, principal, c.req.valid("json"), saving(c));
      return c.json(post, 201);
    },
  )
  .openapi(
    route({
      method: "post",
      operationId: "validatePost",
      // It only reads: its batch overlaps the gate's Coordinator call, as a GET's does.
      earlyReads: true,
      path: "/validate",
      tags,
      summary: "Validate a post (dry run)",
      description: [
        "Takes the body of `POST /api/v1/posts` and answers 200 without creating, changing or queuing anything: `errors` is what create would answer in its 422's `errors` now (empty when it would create the post), and `accounts` says, for each id of `accounts` in order, whether the post would publish there and every problem found, by the request's field path (`accounts.1`, `content.0.text`, `content.0.media.2`, `settings.pinterest.board_id`). `valid` is true when create accepts the body and every account would publish.",
        "An account's problems are create's errors that concern it (an id of another workspace, text over its platform's limit) and what would fail it at publish time: an expired account (reconnect it), a platform this service is not configured for, a thread on a platform without threads (TikTok, YouTube, Pinterest), media its platform refuses by type, size or count (a text-only post on Instagram, TikTok or Pinterest, a YouTube post without a video, more than 4 images or a video beside other media on X, …), and settings it cannot publish without (a Pinterest `board_id`). Durations are not checked: the media library does not store them. A body that does not match the schema is the same 422 as create's; a workspace the user cannot access, the same 404.",
      ].join("\n\n"),
      request: { body: jsonBody(createPostBody) },
      responses: {
        200: jsonContent(
          postValidationSchema,
          "Whether create accepts the body and each account would publish.",
        ),
      },
      errors: [404],
    }),
    async (c) => {
      const { db, principal } = c.var;
      const origin = publicOrigin(c.env, c.req.url);
      const configured = (platform: Platform) =>
        lookupAdapter(c.env, platform, origin, c.var.principal.mode).kind === "ok";
      return c.json(await validatePost(db, principal, c.req.valid("json"), { configured }), 200);
    },
  )
  .openapi(
    route({
      method: "get",
      operationId: "getPost",
      path: "/{id}",
      tags,
      summary: "Get a post",
      description: `The post with its platform rows, labels and media, and its comments when \`include_comments\` is true.\n\n${STATUSES}`,
      request: { params: idParams, query: getPostQuery },
      responses: { 200: jsonContent(postSchema, "The post.") },
      errors: [404],
    }),
    async (c) => {
      const { db, principal } = c.var;
      const { id } = c.req.valid("param");
      const { include_comments } = c.req.valid("query");
      return c.json(await loadPost(db, principal, id, presenting(c, include_comments)), 200);
    },
  )
  .openapi(
    route({
      method: "put",
      operationId: "updatePost",
      earlyReads: true,
      path: "/{id}",
      tags,
      summary: "Update a post",
      description: [
        "A partial update: every field is optional and a field left out keeps its stored value. `content`, `labels` and `accounts` replace the stored lists wholesale; rows of accounts that stay keep their settings, new accounts get a row with their platform's defaults (or `settings`), and rows of dropped accounts are removed. `settings` replaces the settings of the rows of the platforms it names. `scheduled_at: null` turns the post back into a DRAFT, `publish_now: true` publishes it now; a stored `scheduled_at` that has already passed is dropped rather than re-armed unless the post is still SCHEDULED. `repeatable: false` clears the repeat fields, and `remaining_posts` restarts from `repeatable_times` when `repeatable` or `repeatable_times` is given. `auto_plug: null` removes the follow-up. Every platform row takes the post's new status.",
        "DRAFT, PENDING_APPROVAL, SCHEDULED and FAILED posts can be edited. A change of the content, accounts, time or settings adds one to `version`; in a workspace whose `approval` is `required` it makes the post PENDING_APPROVAL again, even if it was approved (labels alone keep the approval). A PUBLISHED post cannot: the answer is a 422 on `status`. A PUBLISHING post cannot be edited while it is being published: the answer is a 409, and so is an update that raced the publisher or another update (nothing is written; send it again).",
        STATUSES,
        SETTINGS,
        REPEAT,
        AUTO_PLUG,
      ].join("\n\n"),
      request: { params: idParams, body: jsonBody(updatePostBody) },
      responses: { 200: jsonContent(postSchema, "The post.") },
      errors: [404, 409],
    }),
    async (c) => {
      const { db, principal } = c.var;
      const { id } = c.req.valid("param");
      const post = await updatePost(db, principal, id, c.req.valid("json"), saving(c));
      return c.json(post, 200);
    },
  )
  .openapi(
    route({
      method: "post",
      operationId: "retryPost",
      earlyReads: true,
      path: "/{id}/retry",
      idempotent: true,
      tags,
      summary: "Retry a failed post",
      description: [
        "Publishes the FAILED platform rows of a FAILED post again: those rows and the post become PUBLISHING and are queued at once; rows that were published stay as they are. Each retried row keeps its `error` until its new outcome. A row whose earlier attempt may have reached the platform is first looked up there, so a retry never publishes a row twice. A repeatable post whose occurrence completes this way resumes its repeat.",
        "A post that is not FAILED has nothing to retry: the answer is a 409 (`{message}`), for a post still being published as for a DRAFT, SCHEDULED or PUBLISHED one.",
        STATUSES,
      ].join("\n\n"),
      request: { params: idParams },
      responses: { 200: jsonContent(postSchema, "The post, PUBLISHING.") },
      errors: [404, 409],
    }),
    async (c) => {
      const { db, principal } = c.var;
      const { id } = c.req.valid("param");
      return c.json(await retryPost(db, principal, id, saving(c)), 200);
    },
  )
  .openapi(
    route({
      method: "delete",
      operationId: "deletePost",
      earlyReads: true,
      path: "/{id}",
      tags,
      summary: "Delete a post",
      description:
        "Deletes the post with its platform rows, media links, labels and comments; the media stay in the library. A SCHEDULED post deleted before it comes due is not published. While a platform row is PUBLISHING (the platform may be publishing it right now) the answer is a 409 and nothing changes: send it again once the row settled.",
      request: { params: idParams },
      responses: { 200: jsonContent(messageSchema, "Deleted.") },
      errors: [404, 409],
    }),
    async (c) => {
      const { db, principal } = c.var;
      await deletePost(db, principal, c.req.valid("param").id);
      return c.json({ message: "Post deleted successfully." }, 200);
    },
  );
