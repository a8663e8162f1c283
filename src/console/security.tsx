// The security page: the user's sessions (each revocable; revoking this one signs out here).
import { deleteCookie } from "hono/cookie";
import type { Child, FC } from "hono/jsx";
import { notFound } from "../http/errors";
import { Hidden, Layout, type Nav } from "./layout";
import { consoleRoutes, navOf, signedIn } from "./page-routes";
import { PasskeysSection } from "./passkey-views";
import { type ListedPasskey, passkeysOf } from "./passkeys";
import { SecurityLog } from "./security-log";
import { revokeSession, SESSION_COOKIE, sessionsOf } from "./sessions";

export const securityRoutes = consoleRoutes()
  .get("/security", async (c) => {
    const auth = signedIn(c);
    if (auth instanceof Response) return auth;
    const sessions = await sessionsOf(auth.db, auth.session.userId);
    const passkeys = await passkeysOf(auth.db, auth.session.userId);
    return c.html(
      <SecurityPage
        nav={await navOf(c, auth.session)}
        sessions={sessions}
        currentId={auth.session.id}
        passkeys={passkeys}
      >
        <SecurityLog db={auth.db} session={auth.session} />
      </SecurityPage>,
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

export type ListedSession = { id: number; userAgent: string | null; createdAt: Date; lastUsedAt: Date };

export const SecurityPage: FC<{
  nav: NonNullable<Nav>;
  sessions: ListedSession[];
  currentId: number;
  passkeys: ListedPasskey[];
  children?: Child;
}> = ({ nav, sessions, currentId, passkeys, children }) => (
  <Layout title="Security" nav={nav} current="/console/security">
    <h1>Security</h1>
    <h2>Sessions</h2>
    <p class="muted">
      Signed in as {nav.email}. A session ends after 12 hours without use, or 30 days after sign-in.
    </p>
    <ul>
      {sessions.map((session) => (
        <li class="card">
          <h3>{session.id === currentId ? "This browser" : (session.userAgent ?? "Unknown browser")}</h3>
          <dl>
            <dt>Browser</dt>
            <dd>{session.userAgent ?? "unknown"}</dd>
            <dt>Signed in</dt>
            <dd>{session.createdAt.toISOString()}</dd>
            <dt>Last used</dt>
            <dd>{session.lastUsedAt.toISOString()}</dd>
          </dl>
          <form method="post" action={`/console/security/sessions/${session.id}/revoke`}>
            <Hidden csrf={nav.csrf} />
            <button type="submit">{session.id === currentId ? "Sign out here" : "Revoke"}</button>
          </form>
        </li>
      ))}
    </ul>
    <PasskeysSection csrf={nav.csrf} passkeys={passkeys} />
    {children}
  </Layout>
);
