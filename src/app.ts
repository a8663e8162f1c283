// The Hono app: middleware order, routers, and the one error path.
import { Hono } from "hono";
import { authenticate } from "./http/auth";
import { requestContext } from "./http/context";
import { renderError } from "./http/errors";
import { rateLimit } from "./http/rate-limit";
import type { AppEnv } from "./http/types";
import { accountsRouter } from "./routes/accounts";
import { adminRouter } from "./routes/admin";
import { delegationRouter } from "./routes/delegation";
import { foldersRouter } from "./routes/folders";
import { labelsRouter } from "./routes/labels";
import { mediaRouter } from "./routes/media";
import { mediaLinksRouter } from "./routes/media-links";
import { postsRouter } from "./routes/posts";
import { sandboxRouter } from "./routes/sandbox";
import { workspacesRouter } from "./routes/workspaces";

// Every /api/v1 resource sits behind the same gate: API key, then the per-user rate limit.
// Mounted per resource so that an unknown path is a plain 404, not a 401.
const resources = {
  "/workspaces": workspacesRouter,
  "/accounts": accountsRouter,
  "/posts": postsRouter,
  "/labels": labelsRouter,
  "/folders": foldersRouter,
  "/media": mediaRouter,
};

const api = new Hono<AppEnv>();
for (const [path, router] of Object.entries(resources)) {
  api.use(`${path}/*`, authenticate, rateLimit).route(path, router);
}

export const app = new Hono<AppEnv>()
  .use("/api/*", requestContext)
  .use("/admin/*", requestContext)
  .route("/api/v1", api)
  .route("/admin/v1", adminRouter)
  // OAuth delegation: the session endpoint (API key, rate limit) and the browser's authorize/callback.
  .route("/api/oauth/delegate", delegationRouter)
  // The sandbox platform; 404 unless SANDBOX is "true".
  .route("/sandbox", sandboxRouter)
  // Signed media links: public, the signature is the credential (no API key, no rate limit).
  .route("/media", mediaLinksRouter)
  .get("/", (c) => c.json({ name: "social-publishing-api", docs: "See README.md", api: "/api/v1" }));

app.notFound((c) => c.json({ message: "Route not found." }, 404));
app.onError(renderError);
