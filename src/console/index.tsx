// The console (/console): sign-in by one-time link, sessions, and the API keys page. Server-rendered,
// no script; every state change is a POST checked by `guard` (same Origin, and the session's csrf field).
// Key rules are the operator API's own (src/admin/key-queries.ts), scoped here to the signed-in user.

import { and, eq } from "drizzle-orm";
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { createMiddleware } from "hono/factory";
import { z } from "zod";
import {
  type Announce,
  announceKeyChange,
  issueKey,
  issueSigningSecret,
  keysOfUser,
  revokeKey,
  rollKey,
  setCallbackOrigins,
} from "../admin/key-queries";
import { presentApiKey } from "../admin/present";
import { usersByEmail } from "../admin/queries";
import { createApiKeyBody } from "../admin/schemas";
import { userCoordinator } from "../coordinator/names";
import type { Database } from "../db/client";
import { apiKeys } from "../db/schema";
import { formBodyLimit } from "../http/body-limit";
import type { DbEnv } from "../http/env";
import { ApiError, badRequest, errorStyle, notFound, renderError, tooManyAttempts } from "../http/errors";
import { messagesByField } from "../http/messages";
import { createRouter } from "../http/router";
import { publicOrigin } from "../lib/origin";
import { CONSOLE_CSS } from "./assets";
import { countSignInAttempt } from "./limits";
import { consumeSignInLink, issueSignInLink, linkPath } from "./links";
import { sendSignInLink } from "./mail";
import {
  ConfirmPage,
  KeysPage,
  LinkUnusablePage,
  RefusalPage,
  SecurityPage,
  type Shown,
  SignInPage,
} from "./pages";
import {
  csrfMatches,
  csrfToken,
  endSession,
  openSession,
  readSession,
  revokeSession,
  SESSION_COOKIE,
  type Session,
  sessionsOf,
} from "./sessions";
import { readToken } from "./tokens";

type ConsoleEnv = {
  Bindings: Env;
  Variables: DbEnv["Variables"] & {
    session?: Session;
    sessionShard?: number;
    form?: Record<string, unknown>;
  };
};
type Ctx = Context<ConsoleEnv>;

/** Nothing but the worker's own origin; no script at all; never framed or cached. */
const CSP =
  "default-src 'self'; script-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

const securityHeaders = createMiddleware<ConsoleEnv>(async (c, next) => {
  await next();
  c.res.headers.set("Content-Security-Policy", CSP);
  c.res.headers.set("Cache-Control", "no-store");
  // same-origin, not no-referrer: with no-referrer a browser sends `Origin: null` on form posts, which the
  // guard must refuse; no page links off the origin, so nothing else would carry a Referer.
  c.res.headers.set("Referrer-Policy", "same-origin");
  c.res.headers.set("X-Content-Type-Options", "nosniff");
  c.res.headers.set("X-Frame-Options", "DENY");
});

const forbiddenRequest = () =>
  new ApiError(403, { message: "This request was refused: reload the page and try again." });

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

const clientIp = (c: Ctx) => c.req.header("cf-connecting-ip") ?? "unknown";

async function refuseOverLimit(c: Ctx, email?: string) {
  const retryAfter = await countSignInAttempt(c.env, clientIp(c), email);
  if (retryAfter !== null) throw tooManyAttempts({ "Retry-After": String(retryAfter) });
}

/** The signed-in session, or a redirect to the sign-in page. */
function signedIn(c: Ctx): { session: Session; db: Database } | Response {
  const session = c.var.session;
  if (!session) return c.redirect("/console/sign-in", 303);
  return { session, db: c.var.shards.at(c.var.sessionShard!) };
}

const navOf = async (c: Ctx, session: Session) => ({
  csrf: await csrfToken(c.env, session),
  email: session.email,
});

const announcer =
  (c: Ctx): Announce =>
  (key, revoked) =>
    c.var.meter.gate(() => announceKeyChange(c.env, key, revoked));

/** The user's keys as listed, with their last uses. */
async function listedKeys(c: Ctx, db: Database, userId: number) {
  const [, keys] = await db.batch(keysOfUser(db, userId));
  const uses: Record<number, number> =
    keys.length === 0
      ? {}
      : await c.var.meter.gate(() => c.env.COORDINATOR.getByName(userCoordinator(userId)).lastKeyUses());
  return keys.map((key) => presentApiKey(key, uses[key.id]));
}

async function keysPage(
  c: Ctx,
  session: Session,
  db: Database,
  extra: { shown?: Shown; errors?: Record<string, string[]> } = {},
  status: 200 | 422 = 200,
) {
  const keys = await listedKeys(c, db, session.userId);
  return c.html(<KeysPage nav={await navOf(c, session)} keys={keys} {...extra} />, status);
}

/** 404 unless the key is the signed-in user's (an id of another user's key says nothing). */
async function ownKey(db: Database, userId: number, keyId: string) {
  const id = Number(keyId);
  const found =
    Number.isSafeInteger(id) &&
    (await db
      .select({ id: apiKeys.id })
      .from(apiKeys)
      .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId)))
      .get());
  if (!found) throw notFound("API key");
  return id;
}

/** The create form: the operator API's key rules, from form fields. `expires_at` is a UTC datetime-local. */
const keyForm = z.object({
  name: createApiKeyBody.shape.name,
  abilities: createApiKeyBody.shape.abilities,
  expires_at: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (!value) return null;
      const date = new Date(`${value}${/[zZ]|[+-]\d\d:\d\d$/.test(value) ? "" : "Z"}`);
      if (Number.isNaN(date.getTime())) {
        ctx.addIssue({ code: "custom", message: "The expiry must be a date and time." });
        return z.NEVER;
      }
      return date;
    }),
});

const list = (value: unknown): unknown[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

export const consoleRouter = createRouter<ConsoleEnv>()
  .use("*", errorStyle("html"), securityHeaders, loadSession, guard)
  .get("/assets/console.css", (c) => c.body(CONSOLE_CSS, 200, { "Content-Type": "text/css; charset=utf-8" }))
  .get("/", (c) => c.redirect(c.var.session ? "/console/keys" : "/console/sign-in", 303))
  .get("/sign-in", (c) => (c.var.session ? c.redirect("/console/keys", 303) : c.html(<SignInPage />)))
  .post("/sign-in", async (c) => {
    const parsed = z
      .email()
      .max(255)
      .safeParse(String(c.var.form?.email ?? "").trim());
    if (!parsed.success) {
      await refuseOverLimit(c);
      return c.html(<SignInPage error="Enter an email address." />, 422);
    }
    const email = parsed.data.toLowerCase();
    await refuseOverLimit(c, email);
    // The same answer whether or not a user has the address; the mail goes out after it.
    const [user] = await usersByEmail(c.var.shards, email);
    if (user) {
      const link = await issueSignInLink(c.var.shards, user.id, publicOrigin(c.env, c.req.url));
      c.executionCtx.waitUntil(sendSignInLink(c.env, email, link.url));
    }
    return c.html(<SignInPage sent />);
  })
  // A browser already signed in posts the link with its session's csrf field, like every other form.
  .get("/sign-in/:token", async (c) => {
    // Only a token's shape goes into the form's action: a decoded `..%2F…` would aim the button, with
    // this session's csrf field, at another of the console's forms.
    if (!(await readToken("l", c.req.param("token")))) return c.html(<LinkUnusablePage />, 410);
    const csrf = c.var.session ? await csrfToken(c.env, c.var.session) : undefined;
    return c.html(<ConfirmPage action={linkPath(c.req.param("token"))} csrf={csrf} />);
  })
  .post("/sign-in/:token", async (c) => {
    await refuseOverLimit(c);
    const parsed = await readToken("l", c.req.param("token"));
    const userId = parsed && (await consumeSignInLink(c.var.shards.at(parsed.shard), parsed.hash));
    if (!parsed || !userId) return c.html(<LinkUnusablePage />, 410);
    // openSession ends the held session in the same batch when it is of the same shard; else here.
    const held = await readToken("s", getCookie(c, SESSION_COOKIE));
    if (held && held.shard !== parsed.shard) await endSession(c.var.shards.at(held.shard), held.hash);
    const token = await openSession(
      c.var.shards.at(parsed.shard),
      parsed.shard,
      userId,
      c.req.header("user-agent"),
      getCookie(c, SESSION_COOKIE),
    );
    setCookie(c, SESSION_COOKIE, token, { httpOnly: true, secure: true, sameSite: "Lax", path: "/" });
    return c.redirect("/console/keys", 303);
  })
  .post("/sign-out", async (c) => {
    const parsed = await readToken("s", getCookie(c, SESSION_COOKIE));
    if (parsed && c.var.session) await endSession(c.var.shards.at(parsed.shard), parsed.hash);
    deleteCookie(c, SESSION_COOKIE, { secure: true, path: "/" });
    return c.redirect("/console/sign-in", 303);
  })
  .get("/keys", async (c) => {
    const auth = signedIn(c);
    if (auth instanceof Response) return auth;
    return keysPage(c, auth.session, auth.db);
  })
  .post("/keys", async (c) => {
    const auth = signedIn(c);
    if (auth instanceof Response) return auth;
    const form = c.var.form ?? {};
    const parsed = keyForm.safeParse({
      name: form.name,
      abilities: list(form.abilities),
      expires_at: typeof form.expires_at === "string" ? form.expires_at : undefined,
    });
    if (!parsed.success)
      return keysPage(
        c,
        auth.session,
        auth.db,
        { errors: messagesByField(parsed.error.issues, parsed.error) },
        422,
      );
    const issued = await issueKey(auth.db, {
      user_id: auth.session.userId,
      callback_origins: [],
      ...parsed.data,
    });
    return keysPage(c, auth.session, auth.db, {
      shown: { title: "Your new key", label: "API key", value: issued.key },
    });
  })
  .post("/keys/:id/roll", async (c) => {
    const auth = signedIn(c);
    if (auth instanceof Response) return auth;
    const id = await ownKey(auth.db, auth.session.userId, c.req.param("id"));
    const rolled = await rollKey(auth.db, announcer(c), id);
    return keysPage(c, auth.session, auth.db, {
      shown: { title: "Your rolled key", label: "API key", value: rolled.key },
    });
  })
  .post("/keys/:id/revoke", async (c) => {
    const auth = signedIn(c);
    if (auth instanceof Response) return auth;
    const id = await ownKey(auth.db, auth.session.userId, c.req.param("id"));
    await revokeKey(auth.db, announcer(c), id);
    return c.redirect("/console/keys", 303);
  })
  .post("/keys/:id/signing-secret", async (c) => {
    const auth = signedIn(c);
    if (auth instanceof Response) return auth;
    const id = await ownKey(auth.db, auth.session.userId, c.req.param("id"));
    const secret = await issueSigningSecret(auth.db, announcer(c), c.env.ENCRYPTION_KEY, id);
    return keysPage(c, auth.session, auth.db, {
      shown: { title: "Your new signing secret", label: "Signing secret", value: secret },
    });
  })
  .post("/keys/:id/callback-origins", async (c) => {
    const auth = signedIn(c);
    if (auth instanceof Response) return auth;
    const id = await ownKey(auth.db, auth.session.userId, c.req.param("id"));
    const lines = String(c.var.form?.callback_origins ?? "")
      .split(/\s+/)
      .filter(Boolean);
    const parsed = createApiKeyBody.shape.callback_origins.safeParse(lines);
    if (!parsed.success)
      return keysPage(
        c,
        auth.session,
        auth.db,
        { errors: messagesByField(parsed.error.issues, parsed.error) },
        422,
      );
    await setCallbackOrigins(auth.db, announcer(c), id, parsed.data);
    return c.redirect("/console/keys", 303);
  })
  .get("/security", async (c) => {
    const auth = signedIn(c);
    if (auth instanceof Response) return auth;
    const sessions = await sessionsOf(auth.db, auth.session.userId);
    return c.html(
      <SecurityPage nav={await navOf(c, auth.session)} sessions={sessions} currentId={auth.session.id} />,
    );
  })
  .post("/security/sessions/:id/revoke", async (c) => {
    const auth = signedIn(c);
    if (auth instanceof Response) return auth;
    const id = Number(c.req.param("id"));
    if (!Number.isSafeInteger(id) || !(await revokeSession(auth.db, auth.session.userId, id)))
      throw notFound("Session");
    if (id === auth.session.id) {
      deleteCookie(c, SESSION_COOKIE, { secure: true, path: "/" });
      return c.redirect("/console/sign-in", 303);
    }
    return c.redirect("/console/security", 303);
  });

// A refusal is a console page with its status (403, 404, 429) and headers (Retry-After); anything else
// goes through the app's one renderer, which logs it and answers a plain 500 page (errorStyle html).
consoleRouter.onError((err, c) => {
  if (err instanceof ApiError && err.status < 500) {
    for (const [name, value] of Object.entries(err.headers)) c.header(name, value);
    return c.html(<RefusalPage message={err.body.message} />, err.status);
  }
  return renderError(err, c);
});
