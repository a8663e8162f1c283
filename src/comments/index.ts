// The comment inbox: every comment on every account of the caller's workspaces, newest first, and the
// account's reply, hide/unhide and delete through the platform (actions.ts). Ability `posts`. The list
// is one D1 statement after authentication (queries.ts).
import type { z } from "zod";
import type { ApiEnv } from "../http/env";
import { jsonBody, jsonContent } from "../http/openapi";
import { simplePage } from "../http/pagination";
import { apiRoutes } from "../http/route";
import { createRouter } from "../http/router";
import { publicOrigin } from "../lib/origin";
import { idParams, messageSchema } from "../lib/schemas";
import { deleteComment, hideComment, replyToComment } from "./actions";
import { presentComment } from "./present";
import { listComments } from "./queries";
import { commentPageSchema, commentSchema, DEFAULT_PER_PAGE, listCommentsQuery, replyBody } from "./schemas";

const route = apiRoutes("posts");

/** The request's URL on the public origin with `params` set (the others kept). */
function urlWith(requestUrl: string, origin: string, params: Record<string, string>) {
  const url = new URL(requestUrl);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return `${origin}${url.pathname}?${url.searchParams.toString()}`;
}

export const commentsRouter = createRouter<ApiEnv>()
  .openapi(
    route({
      method: "get",
      operationId: "listComments",
      path: "/",
      tags: ["Comments"],
      summary: "List comments",
      description: `The comments stored from every connected account's published posts (read with each analytics sync), in every workspace the key's user can access, newest first: ${DEFAULT_PER_PAGE} per page unless \`per_page\` says otherwise (at most 100).\n\nWalk the list with \`cursor\`: pass each page's \`next_cursor\` (or follow \`next_page_url\`, which carries it). A cursor is stable: comments that arrive meanwhile never shift or repeat items across pages, and every page costs what page 1 does. \`page\` numbers work too, for compatibility, but are not stable (a new comment moves every later item down one) and a deep page costs its offset.\n\nFilters, combined with AND: \`workspace_id\`, \`account_id\`, \`post_id\` (another tenant's matches nothing, as an absent one), \`platform\`, \`since\` (written at or after, ISO 8601), \`hidden\`, \`replied\` (the account replied through the service). A query parameter the list does not know is a 422. A comment deleted through the service is not listed; a reply still being sent (its platform's answer was lost) is, with \`platform_comment_id\` null. \`actions\` says what the account may do with each comment.`,
      request: { query: listCommentsQuery },
      responses: { 200: jsonContent(commentPageSchema, "One page of comments.") },
    }),
    async (c) => {
      const { db, principal } = c.var;
      const query = c.req.valid("query");
      const { page, per_page, cursor } = query;
      const { rows: shown, nextCursor } = await listComments(db, principal, query);
      const more = nextCursor !== null;
      const origin = publicOrigin(c.env, c.req.url);
      const fields = simplePage({ requestUrl: c.req.url, origin, page, perPage: per_page }, more);
      return c.json(
        {
          data: shown.map((row) => presentComment(row.comment, row.timezone)),
          next_cursor: nextCursor,
          ...fields,
          // The next page is read from the cursor; a page read from one has no way back but the client's.
          next_page_url:
            nextCursor === null
              ? null
              : urlWith(c.req.url, origin, { page: String(page + 1), cursor: nextCursor }),
          prev_page_url: cursor === undefined ? fields.prev_page_url : null,
        } satisfies z.input<typeof commentPageSchema>,
        200,
      );
    },
  )
  .openapi(
    route({
      method: "post",
      operationId: "replyToComment",
      path: "/{id}/replies",
      idempotent: true,
      tags: ["Comments"],
      summary: "Reply to a comment",
      description: [
        "Publishes the account's reply under the comment through its platform's own endpoint and answers it as a Comment (`is_own`, `parent_id` the comment, its platform id and address); the comment is then `replied`. `text` is at most the platform's text limit (X: 280 characters; the platform may count otherwise and refuse with a 422).",
        "Exactly once: with an `Idempotency-Key` a repeat gets the first answer. Without one, a reply whose platform answer was lost (a timeout, the connection dropped) stays recorded; sending the same text again first looks for it among the post's comments and answers it instead of publishing twice. The analytics sync recognises it too, and never announces it as `comment.received`.",
        "A comment whose `actions` lack `reply` is a 422 saying why. A disconnected or expired account, or a platform that did not answer, is a 409: send the request again once reconnected, or at once.",
      ].join("\n\n"),
      request: { params: idParams, body: jsonBody(replyBody) },
      responses: { 201: jsonContent(commentSchema, "The account's reply.") },
      errors: [404, 409, 422],
    }),
    async (c) => {
      const { db, principal } = c.var;
      const { id } = c.req.valid("param");
      const { text } = c.req.valid("json");
      const { comment, timezone } = await replyToComment(c.env, db, principal, id, text);
      return c.json(presentComment(comment, timezone), 201);
    },
  )
  .openapi(
    route({
      method: "post",
      operationId: "hideComment",
      path: "/{id}/hide",
      tags: ["Comments"],
      summary: "Hide a comment",
      description:
        "Hides the comment from the public through its platform (X: the reply moves under \"View hidden replies\") and answers it with `hidden` true; hiding a hidden comment succeeds again. A comment whose `actions` lack `hide` is a 422 saying why (X hides only others' replies, never the account's own); a disconnected or expired account, or a platform that did not answer, is a 409. Where the platform's read does not report hidden comments (X), later syncs keep `hidden` as set here.",
      request: { params: idParams },
      responses: { 200: jsonContent(commentSchema, "The comment, hidden.") },
      errors: [404, 409, 422],
    }),
    async (c) => {
      const { db, principal } = c.var;
      const { id } = c.req.valid("param");
      const { comment, timezone } = await hideComment(c.env, db, principal, id, true);
      return c.json(presentComment(comment, timezone), 200);
    },
  )
  .openapi(
    route({
      method: "post",
      operationId: "unhideComment",
      path: "/{id}/unhide",
      tags: ["Comments"],
      summary: "Show a hidden comment again",
      description:
        "Shows a hidden comment again through its platform and answers it with `hidden` false. Offered where `actions` has `hide`; otherwise a 422 saying why.",
      request: { params: idParams },
      responses: { 200: jsonContent(commentSchema, "The comment, visible.") },
      errors: [404, 409, 422],
    }),
    async (c) => {
      const { db, principal } = c.var;
      const { id } = c.req.valid("param");
      const { comment, timezone } = await hideComment(c.env, db, principal, id, false);
      return c.json(presentComment(comment, timezone), 200);
    },
  )
  .openapi(
    route({
      method: "delete",
      operationId: "deleteComment",
      path: "/{id}",
      tags: ["Comments"],
      summary: "Delete a comment",
      description:
        "Deletes the comment on its platform; it then leaves the list, and no later sync brings it back or announces it again. Its replies stay, with their `parent_id`. A comment whose `actions` lack `delete` is a 422 saying why (X deletes only the account's own posts); a disconnected or expired account, or a platform that did not answer, is a 409.",
      request: { params: idParams },
      responses: { 200: jsonContent(messageSchema, "Deleted.") },
      errors: [404, 409, 422],
    }),
    async (c) => {
      const { db, principal } = c.var;
      await deleteComment(c.env, db, principal, c.req.valid("param").id);
      return c.json({ message: "Comment deleted successfully." }, 200);
    },
  );
