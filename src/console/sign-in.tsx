// Signing in: the sign-in page, a one-time link by mail (or the operator's invitation), its
// confirmation button, and sign-out. Every way in ends in openSession (src/console/sessions.ts).
import { deleteCookie, getCookie } from "hono/cookie";
import type { FC } from "hono/jsx";
import { z } from "zod";
import { usersByEmail } from "../admin/queries";
import { publicOrigin } from "../lib/origin";
import { Hidden, Layout } from "./layout";
import { consumeSignInLink, issueSignInLink, linkPath } from "./links";
import { sendSignInLink } from "./mail";
import { consoleRoutes, refuseOverLimit, startSession } from "./page-routes";
import { PasskeySignIn } from "./passkey-views";
import { csrfToken, endSession, SESSION_COOKIE } from "./sessions";

import { readToken } from "./tokens";

export const signInRoutes = consoleRoutes()
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
    await startSession(c, parsed.shard, userId);
    return c.redirect("/console/keys", 303);
  })
  .post("/sign-out", async (c) => {
    const parsed = await readToken("s", getCookie(c, SESSION_COOKIE));
    if (parsed && c.var.session) await endSession(c.var.shards.at(parsed.shard), parsed.hash);
    deleteCookie(c, SESSION_COOKIE, { secure: true, path: "/" });
    return c.redirect("/console/sign-in", 303);
  });

/** Ways to sign in: a passkey first (when the browser can), a link by mail always. */
export const SignInPage: FC<{ sent?: boolean; error?: string }> = ({ sent, error }) => (
  <Layout title="Sign in" nav={null}>
    <h1>Sign in</h1>
    {sent ? (
      <p class="notice" role="status">
        Check your mail: if an account uses that address, a sign-in link is on its way. It works once, within
        15 minutes.
      </p>
    ) : (
      <>
        <PasskeySignIn />
        <section aria-labelledby="by-link">
          <h2 id="by-link">Sign in with a link</h2>
          <form method="post" action="/console/sign-in">
            <label for="email">Email address</label>
            <input
              type="email"
              id="email"
              name="email"
              required
              autocomplete="email"
              aria-describedby={error ? "email-error" : undefined}
            />
            {error && (
              <p class="error" id="email-error">
                {error}
              </p>
            )}
            <div class="actions">
              <button type="submit" class="primary">
                Email me a link
              </button>
            </div>
          </form>
        </section>
      </>
    )}
  </Layout>
);

/** What a link opens: a button, so that mail scanners that follow links do not use it up. */
export const ConfirmPage: FC<{ action: string; csrf?: string }> = ({ action, csrf }) => (
  <Layout title="Sign in" nav={null}>
    <h1>Sign in</h1>
    <p>Continue to sign in to the console in this browser.</p>
    <form method="post" action={action}>
      {csrf && <Hidden csrf={csrf} />}
      <button type="submit" class="primary">
        Sign in
      </button>
    </form>
  </Layout>
);

export const LinkUnusablePage: FC = () => (
  <Layout title="Link expired" nav={null}>
    <h1>This link cannot be used</h1>
    <p>It was already used or it has expired (links last 15 minutes and work once).</p>
    <p>
      <a href="/console/sign-in">Ask for a new link</a>
    </p>
  </Layout>
);
