// What every console page shares: its env, the signed-in check, the nav's fields, and form helpers.
// A page is a router of its own (`consoleRoutes()`), mounted by index.tsx behind the one set of
// middleware (security headers, session, CSRF guard), so a page never checks those itself.
import type { Context } from "hono";
import type { Database } from "../db/client";
import type { DbEnv } from "../http/env";
import { ApiError } from "../http/errors";
import { createRouter } from "../http/router";
import { csrfToken, type Session } from "./sessions";

export type ConsoleEnv = {
  Bindings: Env;
  Variables: DbEnv["Variables"] & {
    session?: Session;
    sessionShard?: number;
    form?: Record<string, unknown>;
  };
};
export type Ctx = Context<ConsoleEnv>;

/** A router for one console page (or group of pages): mounted at `/console` by index.tsx. */
export const consoleRoutes = () => createRouter<ConsoleEnv>();

export const forbiddenRequest = () =>
  new ApiError(403, { message: "This request was refused: reload the page and try again." });

/** The signed-in session and its user's database, or a redirect to the sign-in page. */
export function signedIn(c: Ctx): { session: Session; db: Database } | Response {
  const session = c.var.session;
  if (!session) return c.redirect("/console/sign-in", 303);
  return { session, db: c.var.shards.at(c.var.sessionShard!) };
}

/** What the layout's nav needs: the session's csrf field (for sign-out) and who is signed in. */
export const navOf = async (c: Ctx, session: Session) => ({
  csrf: await csrfToken(c.env, session),
  email: session.email,
});

/** A form field that may be sent once or repeated (checkboxes), as a list. */
export const list = (value: unknown): unknown[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];
