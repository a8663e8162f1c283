// The sandbox platform's browser and API surface at /sandbox/{platform}/…; it does not exist (404)
// unless SANDBOX is "true".
import { createRouter } from "../http/router";
import { sandboxEnabled } from "../platforms/index";
import { sandboxApp } from "../platforms/sandbox/app";

export const sandboxRouter = createRouter()
  .use("*", async (c, next) => {
    if (!sandboxEnabled(c.env)) return c.notFound();
    await next();
  })
  .route("/", sandboxApp);
