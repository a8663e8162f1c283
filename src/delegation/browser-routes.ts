// The delegation pages a browser visits (no API key: the single-use link and the flow's cookie are the
// credentials): GET /authorize/{token}, which sends the user to the platform's consent page
// (src/oauth/authorize.ts), GET /callback, where the platform sends them back (callback.ts), and the
// channel pick of a connect, POST /callback (pick.ts). Each step answers a plain outcome
// (src/oauth/outcome.ts); the routes only read the request and render the outcome. Browsers get HTML
// pages and redirects, never JSON, so these routes are left out of the OpenAPI document (the session
// endpoint's description covers them).
import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import { channelPage } from "../accounts/channels";
import { CALLBACK_PATH } from "../coordinator/links";
import { formBodyLimit } from "../http/body-limit";
import type { DbEnv } from "../http/env";
import { errorStyle } from "../http/errors";
import { createRouter } from "../http/router";
import { invalidLinkPage, NO_STORE_HEADERS, redirectTo } from "../lib/html";
import { publicOrigin } from "../lib/origin";
import { authorize } from "../oauth/authorize";
import type { FlowContext } from "../oauth/context";
import type { FlowOutcome } from "../oauth/outcome";
import { callback } from "./callback";
import { pick } from "./pick";

const flowContext = (c: Context<DbEnv>): FlowContext => ({
  env: c.env,
  shards: c.var.shards,
  metered: (work) => c.var.meter.gate(work),
  origin: publicOrigin(c.env, c.req.url),
});

/** An outcome as the browser gets it: a 302 (with the flow's cookie set or cleared) or a page. */
function respond(outcome: FlowOutcome): Response {
  switch (outcome.kind) {
    case "consent":
      return redirectTo(outcome.location, [["Set-Cookie", outcome.cookie]]);
    case "proof":
    case "connected":
    case "failed":
      return redirectTo(
        outcome.location,
        outcome.cookies.map((cookie) => ["Set-Cookie", cookie]),
      );
    case "choose_channel":
      return channelPage(CALLBACK_PATH, outcome.flow, outcome.platformLabel, outcome.channels);
    case "invalid_link":
      return invalidLinkPage(outcome.detail);
  }
}

export const browserRouter = createRouter<DbEnv>()
  .use("/authorize/*", errorStyle("html"))
  .use("/callback", errorStyle("html"))
  .get("/authorize/:token", async (c) => {
    // Hono runs GET handlers for HEAD too; that would spend the single-use link on a link checker's
    // probe. A HEAD only learns that the URL exists.
    if (c.req.method === "HEAD") return new Response(null, { status: 204, headers: NO_STORE_HEADERS });
    return respond(await authorize(flowContext(c), c.req.param("token")));
  })
  .get("/callback", async (c) => {
    const query = { state: c.req.query("state"), code: c.req.query("code"), error: c.req.query("error") };
    return respond(await callback(flowContext(c), query, (name) => getCookie(c, name)));
  })
  // A same-origin form POST to the callback path, where the flow's browser cookie is sent (SameSite=Lax:
  // a cross-site form cannot carry it). Its body is capped before it is parsed (413 past 16 KiB).
  .post("/callback", formBodyLimit, async (c) => {
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const flow = typeof form.flow === "string" ? form.flow : undefined;
    const channel = typeof form.channel === "string" ? form.channel : "";
    return respond(await pick(flowContext(c), { flow, channel }, (name) => getCookie(c, name)));
  });
