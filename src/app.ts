// The Hono app: middleware order, where each resource is mounted, the API description, and the one
// error path. Every route is declared in its resource's folder (src/<resource>/index.ts).
import { accountsRouter } from "./accounts";
import { adminRouter } from "./admin";
import { adminOnly } from "./admin/operator-routes";
import { analyticsRouter } from "./analytics";
import { approvalsRouter } from "./approvals";
import { reviewRouter } from "./approvals/review-routes";
import { commentsRouter } from "./comments";
import { consoleRouter } from "./console";
import { consoleOperatorRouter } from "./console/operator-routes";
import { delegationRouter } from "./delegation";
import { docsRouter } from "./docs";
import { foldersRouter } from "./folders";
import { requestContext } from "./http/context";
import { registerDocument } from "./http/document";
import type { ApiEnv, BareEnv } from "./http/env";
import { renderError, routeNotFound } from "./http/errors";
import { apiGate } from "./http/gate";
import { methodMatcher, unservedMethod } from "./http/methods";
import { requestLog } from "./http/request-log";
import { createRouter } from "./http/router";
import { importsRouter } from "./imports";
import { labelsRouter } from "./labels";
import { mcpRouter } from "./mcp";
import { meRouter } from "./me";
import { mediaRouter } from "./media";
import { mediaLinksRouter } from "./media/link-routes";
import { platformWebhooksRouter } from "./platform-webhooks";
import { accountQueueRouter, workspaceQueueRouter } from "./posting-queues";
import { postsRouter } from "./posts";
import { sandboxRouter } from "./sandbox";
import { webhooksRouter } from "./webhooks";
import { registerWebhookEvents } from "./webhooks/event-routes";
import { workspacesRouter } from "./workspaces";

// Every /api/v1 resource, listed once: each sits behind the same gate (src/http/gate.ts), API key and
// per-user rate limit, mounted per resource so that an unknown path is a plain 404, not a 401.
const RESOURCES = {
  "/workspaces": workspacesRouter,
  "/accounts": accountsRouter,
  "/posts": postsRouter,
  "/imports": importsRouter,
  "/labels": labelsRouter,
  "/folders": foldersRouter,
  "/media": mediaRouter,
  "/analytics": analyticsRouter,
  "/comments": commentsRouter,
  "/webhooks": webhooksRouter,
  "/me": meRouter,
} as const;
const api = createRouter<ApiEnv>();
const gate = apiGate("api");
for (const [path, router] of Object.entries(RESOURCES)) api.use(`${path}/*`, gate).route(path, router);
// Posting queues sit under the accounts and workspaces they belong to (behind the same gate).
api.route("/accounts", accountQueueRouter).route("/workspaces", workspaceQueueRouter);
// Approvals sit under the posts they decide (behind the same gate).
api.route("/posts", approvalsRouter);

export const app = createRouter<BareEnv>();
app
  .use("*", requestLog)
  .use("/api/*", requestContext)
  .use("/admin/*", requestContext)
  .use("/media/*", requestContext)
  .use("/mcp", requestContext)
  .use("/console/*", requestContext)
  .use("/review/*", requestContext)
  .route("/api/v1", api)
  // The API for AI agents (Model Context Protocol): each tool call is answered by its /api/v1 route,
  // through this app's own fetch, with the caller's key.
  .route(
    "/mcp",
    mcpRouter(async (request, c) => app.fetch(request, c.env, c.executionCtx)),
  )
  .route("/admin/v1", adminRouter)
  .route("/admin/v1", consoleOperatorRouter)
  // The account web app: sign-in, sessions and API keys, server-rendered pages (src/console/).
  .route("/console", consoleRouter)
  // OAuth delegation: the session endpoint (API key, rate limit) and the browser's authorize/callback.
  .route("/api/oauth/delegate", delegationRouter)
  // The sandbox platform; 404 unless SANDBOX is "true".
  .route("/sandbox", sandboxRouter)
  // Review links' pages (ARCHITECTURE "Approvals"): public, the signed link is the credential.
  .route("/review", reviewRouter)
  // Signed media links: public, the signature is the credential (no API key, no rate limit).
  .route("/media", mediaLinksRouter)
  // The platforms' pushes (Meta's webhooks): public, the platform's signature is the credential.
  .route("/platform-webhooks", platformWebhooksRouter)
  // GET /openapi.json and the reference page rendered from it at /docs.
  .route("/", docsRouter)
  .get("/", (c) =>
    c.json({ name: "social-publishing-api", api: "/api/v1", reference: "/docs", openapi: "/openapi.json" }),
  );
registerDocument(app);
registerWebhookEvents(app);

// A known path with a method it does not serve: 405 with `Allow`. On /api/v1 the gate has already
// authenticated and counted the request (its middleware runs before this); the operator API checks its
// token first (404 while ADMIN_TOKEN is unset, 401 without it); the sandbox's emulators answer their own.
const servedMethods = methodMatcher(() => app.routes, ["/sandbox"]);
app.notFound(async (c) => {
  const refusal = unservedMethod(c.req.method, c.req.path, servedMethods(c.req.path));
  if (!refusal) return renderError(routeNotFound(), c);
  try {
    if (c.req.path.startsWith("/admin/v1/")) await adminOnly(c as never, async () => {});
  } catch (error) {
    return renderError(error as Error, c);
  }
  return renderError(refusal, c);
});
app.onError(renderError);
