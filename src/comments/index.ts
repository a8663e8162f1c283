// The comment inbox: every comment on every account of the caller's workspaces, newest first. Ability
// `posts`. One D1 statement after authentication (queries.ts). Reply, hide and delete arrive with the
// next slice of issue 30; `actions` is empty until then.
import type { z } from "zod";
import type { ApiEnv } from "../http/env";
import { jsonContent } from "../http/openapi";
import { simplePage } from "../http/pagination";
import { apiRoutes } from "../http/route";
import { createRouter } from "../http/router";
import { publicOrigin } from "../lib/origin";
import { presentComment } from "./present";
import { commentsPage } from "./queries";
import { commentPageSchema, DEFAULT_PER_PAGE, encodeCursor, listCommentsQuery } from "./schemas";

const route = apiRoutes("posts");

/** The request's URL on the public origin with `params` set (the others kept). */
function urlWith(requestUrl: string, origin: string, params: Record<string, string>) {
  const url = new URL(requestUrl);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return `${origin}${url.pathname}?${url.searchParams.toString()}`;
}

export const commentsRouter = createRouter<ApiEnv>().openapi(
  route({
    method: "get",
    operationId: "listComments",
    path: "/",
    tags: ["Comments"],
    summary: "List comments",
    description: `The comments stored from every connected account's published posts (read with each analytics sync), in every workspace the key's user can access, newest first: ${DEFAULT_PER_PAGE} per page unless \`per_page\` says otherwise (at most 100).\n\nWalk the list with \`cursor\`: pass each page's \`next_cursor\` (or follow \`next_page_url\`, which carries it). A cursor is stable: comments that arrive meanwhile never shift or repeat items across pages, and every page costs what page 1 does. \`page\` numbers work too, for compatibility, but are not stable (a new comment moves every later item down one) and a deep page costs its offset.\n\nFilters, combined with AND: \`workspace_id\`, \`account_id\`, \`post_id\` (another tenant's matches nothing, as an absent one), \`platform\`, \`since\` (written at or after, ISO 8601), \`hidden\`, \`replied\` (the account replied through the service). A query parameter the list does not know is a 422. \`actions\` is empty for now: reply, hide and delete are not offered yet.`,
    request: { query: listCommentsQuery },
    responses: { 200: jsonContent(commentPageSchema, "One page of comments.") },
  }),
  async (c) => {
    const { db, principal } = c.var;
    const query = c.req.valid("query");
    const { page, per_page, cursor } = query;
    // As a batch of one: its answer carries the rows D1 read, which Server-Timing reports.
    const [rows] = await db.batch([
      commentsPage(db, principal.userId, { ...query, perPage: per_page, beforeId: cursor }),
    ]);
    // One row past the page was read: another page follows when it came back.
    const shown = rows.slice(0, per_page);
    const more = rows.length > per_page;
    const nextCursor = more ? encodeCursor(shown.at(-1)!.comment.id) : null;
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
);
