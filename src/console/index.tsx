// The console (/console): the account web app, server-rendered, no script. Here: the one set of
// middleware every page runs behind (security headers, the session, the CSRF guard) and the pages'
// routers; each page is a file of its own (page-routes.ts has what they share).

import { getCookie, setCookie } from "hono/cookie";
import { createMiddleware } from "hono/factory";
import { formBodyLimit } from "../http/body-limit";
import { ApiError, badRequest, errorStyle, renderError } from "../http/errors";
import { pageHeaders } from "../http/page-headers";
import { publicOrigin } from "../lib/origin";
import { accountRoutes } from "./accounts";
import { CONSOLE_CSS } from "./assets";
import { commentRoutes } from "./comments";
import { keyRoutes } from "./keys";
import { RefusalPage } from "./layout";
import {
  type ConsoleEnv,
  type Ctx,
  consoleRoutes,
  forbiddenRequest,
  MODE_COOKIE,
  signedIn,
} from "./page-routes";
import { passkeyCeremonyRoutes, passkeyPageRoutes } from "./passkey-routes";
import { PASSKEY_JS } from "./passkey-script";
import { postRoutes } from "./posts";
import { securityRoutes } from "./security";
import { csrfMatches, readSession, SESSION_COOKIE } from "./sessions";
import { signInRoutes } from "./sign-in";
import { readToken } from "./tokens";
import { webhookRoutes } from "./webhooks";
import { workspaceRoutes } from "./workspaces";

/**
 * The pages that run the one script, /console/assets/passkey.js (passkey-views.tsx): their GETs allow
 * scripts of the worker's own origin (never inline ones); every other answer allows none.
 */
const SCRIPTED_PAGES = new Set(["/console/sign-in", "/console/security"]);
const scripted = (c: Ctx) => c.req.method === "GET" && SCRIPTED_PAGES.has(c.req.path);

const securityHeaders = createMiddleware<ConsoleEnv>(async (c, next) => {
  await next();
  for (const [name, value] of Object.entries(pageHeaders(scripted(c) ? "'self'" : "'none'")))
    c.res.headers.set(name, value);
});

/** The session the cookie names, if live; `sessionShard` says which database holds it. */
const loadSession = createMiddleware<ConsoleEnv>(async (c, next) => {
  const parsed = await readToken("s", getCookie(c, SESSION_COOKIE));
  if (parsed) {
    const session = await readSession(c.var.shards.at(parsed.shard), parsed.hash);
    if (session) {
      c.set("session", session);
      c.set("sessionShard", parsed.shard);
    }
  }
  await next();
});

/**
 * The one CSRF check: every POST must come from a page of this origin (`Origin`), and when a session
 * is signed in, carry its `csrf` field. Anything else is a 403 before the handler runs.
 */
const guard = createMiddleware<ConsoleEnv>(async (c, next) => {
  if (c.req.method !== "POST") return next();
  if (c.req.header("origin") !== publicOrigin(c.env, c.req.url)) throw forbiddenRequest();
  // A few short fields: capped like every browser form (413 past 16 KiB), before anything parses it.
  await formBodyLimit(c, async () => {});
  // A body that is not a form at all (a broken multipart) is the sender's error, not the server's.
  const form = await c.req.parseBody({ all: true }).catch(() => {
    throw badRequest("The form could not be read.");
  });
  c.set("form", form);
  const session = c.var.session;
  if (session) {
    const given = form.csrf;
    if (typeof given !== "string" || !(await csrfMatches(c.env, session, given))) throw forbiddenRequest();
  }
  await next();
});

export const consoleRouter = consoleRoutes()
  .use("*", errorStyle("html"), securityHeaders, loadSession, guard)
  .get("/assets/console.css", (c) => c.body(CONSOLE_CSS, 200, { "Content-Type": "text/css; charset=utf-8" }))
  .get("/assets/passkey.js", (c) =>
    c.body(PASSKEY_JS, 200, { "Content-Type": "text/javascript; charset=utf-8" }),
  )
  .get("/", (c) => c.redirect(c.var.session ? "/console/keys" : "/console/sign-in", 303))
  // The nav's switch between the user's live and test data (ARCHITECTURE "Test mode").
  .post("/mode", (c) => {
    const auth = signedIn(c);
    if (auth instanceof Response) return auth;
    const mode = c.var.form?.mode === "test" ? "test" : "live";
    setCookie(c, MODE_COOKIE, mode, { secure: true, sameSite: "Lax", path: "/", httpOnly: true });
    // Back to the page the switch was pressed on (same origin: the guard checked it), else the keys.
    const back = new URL(c.req.header("referer") ?? "/console/keys", c.req.url);
    const sameOrigin = back.origin === new URL(c.req.url).origin && back.pathname.startsWith("/console/");
    return c.redirect(sameOrigin ? back.pathname : "/console/keys", 303);
  })
  .route("/", signInRoutes)
  .route("/", keyRoutes)
  .route("/", postRoutes)
  .route("/", commentRoutes)
  .route("/", workspaceRoutes)
  .route("/", accountRoutes)
  .route("/", securityRoutes)
  .route("/", passkeyCeremonyRoutes)
  .route("/", passkeyPageRoutes)
  .route("/", webhookRoutes);

// A refusal is a console page with its status (403, 404, 429) and headers (Retry-After); anything else
// goes through the app's one renderer, which logs it and answers a plain 500 page (errorStyle html).
consoleRouter.onError((err, c) => {
  if (err instanceof ApiError && err.status < 500) {
    for (const [name, value] of Object.entries(err.headers)) c.header(name, value);
    return c.html(<RefusalPage message={err.body.message} />, err.status);
  }
  return renderError(err, c);
});
