// The Hono app: middleware order, routers, and the one error path.
import { Hono } from "hono";
import { authenticate } from "./http/auth";
import { requestContext } from "./http/context";
import { renderError } from "./http/errors";
import { rateLimit } from "./http/rate-limit";
import type { AppEnv } from "./http/types";
import { accountsRouter } from "./routes/accounts";
import { adminRouter } from "./routes/admin";
import { workspacesRouter } from "./routes/workspaces";

const api = new Hono<AppEnv>()
  .use(authenticate, rateLimit)
  .route("/workspaces", workspacesRouter)
  .route("/accounts", accountsRouter);

export const app = new Hono<AppEnv>()
  .use("/api/*", requestContext)
  .use("/admin/*", requestContext)
  .route("/api/v1", api)
  .route("/admin/v1", adminRouter)
  .get("/", (c) => c.json({ name: "social-publishing-api", docs: "See README.md", api: "/api/v1" }));

app.notFound((c) => c.json({ message: "Route not found." }, 404));
app.onError(renderError);
