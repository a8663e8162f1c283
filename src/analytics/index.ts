// Analytics: per post, per account, per workspace and overall totals, and an on-demand sync of a post.
// Ability `posts`. Each report is one D1 batch after authentication; the sums are SQL's (queries.ts).
import { z } from "zod";
import type { ApiEnv } from "../http/env";
import { notFound } from "../http/errors";
import { jsonContent } from "../http/openapi";
import { simplePage } from "../http/pagination";
import { apiRoutes } from "../http/route";
import { createRouter } from "../http/router";
import { publicOrigin } from "../lib/origin";
import { textId } from "../lib/schemas";
import { enqueueSync } from "./messages";
import {
  presentAccountPosts,
  presentOverallAnalytics,
  presentPostAnalytics,
  presentWorkspaceAnalytics,
} from "./present";
import { accountReport, overallReport, postReport, syncTargets, workspaceReport } from "./queries";
import {
  accountPostsAnalyticsSchema,
  accountReportQuery,
  overallAnalyticsSchema,
  postAnalyticsSchema,
  syncAnswerSchema,
  workspaceAnalyticsSchema,
} from "./schemas";

const route = apiRoutes("posts");

const tags = ["Analytics"];

const METRICS =
  "Only PUBLISHED platform rows carry metrics, as of their last sync (the service refreshes them on a schedule that slows as a post ages; `POST /api/v1/analytics/posts/{id}/sync` asks for a refresh now). A `total` sums every metric over the rows in scope; its `engagement_rate` is the rows' rates weighted by impressions, or the mean of the non-zero rates when no row has impressions, or 0.";

export const analyticsRouter = createRouter<ApiEnv>()
  .openapi(
    route({
      method: "get",
      operationId: "getAnalytics",
      path: "/",
      tags,
      summary: "Analytics of every workspace",
      description: `Totals across every workspace the key's user can access, per workspace and per account.\n\n${METRICS}`,
      responses: { 200: jsonContent(overallAnalyticsSchema, "The totals.") },
    }),
    async (c) => {
      const { db, principal } = c.var;
      const [[total], workspaceTotals, accountTotals] = await overallReport(db, principal);
      return c.json(presentOverallAnalytics(total, workspaceTotals, accountTotals), 200);
    },
  )
  .openapi(
    route({
      method: "get",
      operationId: "getPostAnalytics",
      path: "/posts/{id}",
      tags,
      summary: "Analytics of a post",
      description: `The post's total and each of its platform rows with its account.\n\n${METRICS}`,
      request: { params: z.object({ id: textId() }) },
      responses: { 200: jsonContent(postAnalyticsSchema, "The post's analytics.") },
      errors: [404],
    }),
    async (c) => {
      const { db, principal } = c.var;
      const { id: post } = c.req.valid("param");
      const [found, rows, accounts, [total]] = await postReport(db, principal, post);
      if (found.length === 0) throw notFound("Post");
      return c.json(presentPostAnalytics(post, total, rows, accounts), 200);
    },
  )
  .openapi(
    route({
      method: "get",
      operationId: "getAccountAnalytics",
      path: "/accounts/{id}",
      tags,
      summary: "Analytics of an account",
      description: `The account's total (over all its rows) and one page of the platform rows published (or to be published) on it, newest platform post first: 100 per page unless \`per_page\` says otherwise, \`next_page_url\` null on the last page. A page reads what it shows, however many rows the account has.\n\n${METRICS}`,
      request: { params: z.object({ id: textId() }), query: accountReportQuery },
      responses: { 200: jsonContent(accountPostsAnalyticsSchema, "The account's analytics.") },
      errors: [404],
    }),
    async (c) => {
      const { db, principal } = c.var;
      const { id: account } = c.req.valid("param");
      const { page, per_page } = c.req.valid("query");
      const request = {
        requestUrl: c.req.url,
        origin: publicOrigin(c.env, c.req.url),
        page,
        perPage: per_page,
      };
      const [found, [total], rows] = await accountReport(db, principal, account, request);
      if (found.length === 0) throw notFound("Account");
      // The query reads one row past the page: there is a next page when it came back.
      const report = presentAccountPosts(account, total, rows.slice(0, per_page));
      return c.json({ ...report, ...simplePage(request, rows.length > per_page) }, 200);
    },
  )
  .openapi(
    route({
      method: "get",
      operationId: "getWorkspaceAnalytics",
      path: "/workspaces/{id}",
      tags,
      summary: "Analytics of a workspace",
      description: `The workspace's total and each of its accounts' totals.\n\n${METRICS}`,
      request: { params: z.object({ id: textId() }) },
      responses: { 200: jsonContent(workspaceAnalyticsSchema, "The workspace's analytics.") },
      errors: [404],
    }),
    async (c) => {
      const { db, principal } = c.var;
      const { id: workspace } = c.req.valid("param");
      const [found, [total], accountTotals] = await workspaceReport(db, principal, workspace);
      if (found.length === 0) throw notFound("Workspace");
      return c.json(presentWorkspaceAnalytics(workspace, total, accountTotals), 200);
    },
  )
  .openapi(
    route({
      method: "post",
      operationId: "syncPostAnalytics",
      path: "/posts/{id}/sync",
      tags,
      summary: "Sync a post's analytics now",
      description:
        "Queues one sync job per PUBLISHED platform row of the post: each fetches the row's metrics and the post's comments from its platform (seconds later, not in this answer), and may publish the post's auto-plug. A row synced, or queued for a sync, within the last minute is not read again: its job is the one already queued or just run (still counted in `jobs_dispatched`), so repeated syncs never multiply the platform's reads or the `analytics.synced` webhooks. Nothing is queued when the post's owner has no active, trialing or grace-period subscription: the answer then says `skipped` with `skip_reason` `post_owner_subscription_inactive`.",
      request: { params: z.object({ id: textId() }) },
      responses: { 200: jsonContent(syncAnswerSchema, "What was queued.") },
      errors: [404],
    }),
    async (c) => {
      const { db, principal } = c.var;
      const { id: post } = c.req.valid("param");
      const [found, subscribed, rows, claimed] = await syncTargets(db, principal, post, Date.now());
      if (found.length === 0) throw notFound("Post");
      if (subscribed.length === 0) {
        return c.json(
          {
            post_id: post,
            jobs_dispatched: 0,
            skipped: true,
            skip_reason: "post_owner_subscription_inactive" as const,
          },
          200,
        );
      }
      // A row synced or queued within the cooldown keeps its job: the answer counts it, nothing is sent.
      await enqueueSync(
        c.env.ANALYTICS_SYNC_QUEUE,
        claimed.map((row) => row.id).sort((a, b) => a - b),
      );
      return c.json({ post_id: post, jobs_dispatched: rows.length, skipped: false, skip_reason: null }, 200);
    },
  );
