// What every console page shares: its env, the signed-in check, the nav's fields, form helpers, and the
// sign-in steps every way in takes.
// A page is a router of its own (`consoleRoutes()`), mounted by index.tsx behind the one set of
// middleware (security headers, session, CSRF guard), so a page never checks those itself.

import { eq } from "drizzle-orm";
import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import type { Database } from "../db/client";
import type { Mode } from "../db/enums";
import { workspaceMembers } from "../db/schema";
import type { Tenant } from "../db/tenancy";
import type { DbEnv } from "../http/env";
import { ApiError, tooManyAttempts } from "../http/errors";
import { createRouter } from "../http/router";
import { countSignInAttempt } from "./limits";
import { csrfToken, endSession, openSession, SESSION_COOKIE, type Session } from "./sessions";
import { readToken } from "./tokens";

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

/**
 * Which of the user's data the console shows: live, or test after the nav's switch (a cookie: it only
 * chooses between the signed-in user's own two tenants, so it needs no protection of its own).
 */
export const MODE_COOKIE = "__Host-console-mode";
export const consoleMode = (c: Ctx): Mode => (getCookie(c, MODE_COOKIE) === "test" ? "test" : "live");

/** The session's user in the console's mode: whose data a page shows. */
export const tenantOf = (c: Ctx, session: Session): Tenant => ({
  userId: session.userId,
  mode: consoleMode(c),
});

/**
 * The signed-in session, its user's database and the tenant the pages show (the user in the console's
 * mode: src/db/tenancy.ts), or a redirect to the sign-in page.
 */
export function signedIn(c: Ctx): { session: Session; db: Database; tenant: Tenant } | Response {
  const session = c.var.session;
  if (!session) return c.redirect("/console/sign-in", 303);
  return {
    session,
    db: c.var.shards.at(c.var.sessionShard!),
    tenant: tenantOf(c, session),
  };
}

/** What the layout's nav needs: the session's csrf field (for sign-out), who is signed in, the mode. */
export const navOf = async (c: Ctx, session: Session) => ({
  csrf: await csrfToken(c.env, session),
  email: session.email,
  mode: consoleMode(c),
});

/** A form field that may be sent once or repeated (checkboxes), as a list. */
export const list = (value: unknown): unknown[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

// What every way in shares (a link, a passkey): the attempt limit, and opening the session one way.

const clientIp = (c: Ctx) => c.req.header("cf-connecting-ip") ?? "unknown";

/** Counts a sign-in attempt; a 429 with Retry-After past the limit. */
export async function refuseOverLimit(c: Ctx, email?: string) {
  const retryAfter = await countSignInAttempt(c.env, clientIp(c), email);
  if (retryAfter !== null) throw tooManyAttempts({ "Retry-After": String(retryAfter) });
}

/** Signs the browser in as the user of `shard`: a new session, replacing any the browser held. */
export async function startSession(c: Ctx, shard: number, userId: number) {
  // openSession ends the held session in the same batch when it is of the same shard; else here.
  const held = await readToken("s", getCookie(c, SESSION_COOKIE));
  if (held && held.shard !== shard) await endSession(c.var.shards.at(held.shard), held.hash);
  const token = await openSession(
    c.var.shards.at(shard),
    shard,
    userId,
    c.req.header("user-agent"),
    getCookie(c, SESSION_COOKIE),
  );
  setCookie(c, SESSION_COOKIE, token, { httpOnly: true, secure: true, sameSite: "Lax", path: "/" });
  // The console opens on the user's live data, or on their test data when they have only that (the
  // demo user of `npm run dev`): never on an empty page while their work is one switch away.
  const modes = await c.var.shards
    .at(shard)
    .selectDistinct({ mode: workspaceMembers.mode })
    .from(workspaceMembers)
    .where(eq(workspaceMembers.userId, userId));
  const only = modes.length === 1 ? modes[0]!.mode : "live";
  setCookie(c, MODE_COOKIE, only, { httpOnly: true, secure: true, sameSite: "Lax", path: "/" });
}
